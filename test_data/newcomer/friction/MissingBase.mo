// Compliant, and it names Base: the loader adds the built-in Base.
model MissingBase
  parameter Real T = 1;
  Base.ContinuousState x(start = 1);
equation
  T*der(x) = -x;
end MissingBase;
