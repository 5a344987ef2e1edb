// Plain Modelica whose fix would write Base.ContinuousState.
model MissingBaseFix
  parameter Real T = 1;
  Real x(start = 1);
equation
  T*der(x) = -x;
end MissingBaseFix;
