// A tank filled for five seconds, then drained: an if-expression on time.
model Tank
  parameter Real A = 2 "cross-section";
  parameter Real a = 0.5 "outflow coefficient";
  Real h(start = 0) "level";
  Real qin;
  Real qout;
equation
  der(h)*A = qin - qout;
  qin = if time < 5 then 1 else 0;
  qout = a*h;
  annotation(experiment(StopTime = 10));
end Tank;
