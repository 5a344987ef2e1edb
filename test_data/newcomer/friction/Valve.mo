// A tank drained through a valve, written as plain Modelica: the level is
// an output and a state, and the valve coefficient of flow = k*sqrt(h)
// has the unit m^(5/2)/s, which no Modelica unit string writes.
model Valve
  parameter Real A(unit = "m2") = 2;
  parameter Real k(unit = "m2.5/s") = 0.5;
  output Real h(unit = "m", start = 1);
equation
  A*der(h) = -k*sqrt(h);
  annotation(experiment(StopTime = 5));
end Valve;
