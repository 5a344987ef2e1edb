// Compliant, but it names Base: it checks only after examples/Base.mo.
model MissingBase
  parameter Real T = 1;
  Base.ContinuousState x(start = 1);
equation
  T*der(x) = -x;
end MissingBase;
