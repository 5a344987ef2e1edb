model Lag
  parameter Real T = 1;
  Base.ContinuousState x(start = 0);
  Real u;
  Real e;
equation
  T*der(x) = e;
  e = u - x;
  u = sin(time);
end Lag;
