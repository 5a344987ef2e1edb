package P
  type ContinuousState = Real;
  model Plant
    parameter Real Ts = 0.1;
    parameter Real T(unit = "s") = 1;
    ContinuousState x(start = 1);
    Real uk(start = 0);
  equation
    uk = previous(uk) + sample(x, Clock(Ts)) - sample(x, Clock(Ts));
    der(x) = (hold(uk) - x)/T;
  end Plant;
end P;
