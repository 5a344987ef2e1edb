model Lag
  parameter Real T = 1;
  Base.ContinuousState x(start = 0);
  Real y;
equation
  y = 2*xx;
  T*der(x) = y - x;
end Lag;
