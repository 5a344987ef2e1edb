package P
  type ContinuousState = Real;
  model Lag
    parameter Real Ts = 0.1;
    parameter Real a = 0.8;
    parameter Real T(unit = "s") = 1;
    ContinuousState x(start = 1);
    Real y(start = 0);
    Real yHeld;
  equation
    y = a*previous(y) + (1 - a)*sample(x, Clock(Ts));
    yHeld = hold(y);
    der(x) = (1 - x + yHeld)/T;
  end Lag;
end P;
