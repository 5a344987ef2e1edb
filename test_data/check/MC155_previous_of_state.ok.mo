package P
  type ContinuousState = Real;
  model Plant
    parameter Real Ts = 0.1;
    parameter Real T(unit = "s") = 1;
    ContinuousState x(start = 1);
    Real xk(start = 1);
    Real uk;
  equation
    xk = sample(x, Clock(Ts));
    uk = xk - previous(xk);
    der(x) = (hold(uk) - x)/T;
  end Plant;
end P;
