// The RC circuit with the equation of the current deleted: nothing
// determines `i`, and that is said at `i`, not at the equation that uses it.
model RCDeleted
  parameter Real R = 1000;
  parameter Real C = 1e-3;
  parameter Real V = 1;
  Base.ContinuousState v(start = 0);
  Real i;
equation
  der(v) = i/C;
end RCDeleted;
