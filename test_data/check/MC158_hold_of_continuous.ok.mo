package P
  type ContinuousState = Real;
  model Plant
    parameter Real Ts = 0.1;
    ContinuousState x(start = 1);
    Real uk;
  equation
    uk = 2*sample(x, Clock(Ts));
    der(x) = -hold(uk);
  end Plant;
end P;
