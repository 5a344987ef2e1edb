package P
  type ContinuousState = Real;
  model Plant
    parameter Real Ts = 0.1;
    parameter Real T(unit = "s") = 1;
    ContinuousState x(start = 1);
    Real uk;
  equation
    uk = 2*sample(x, Clock(Ts));
    der(x) = -hold(uk)/T;
  end Plant;
end P;
