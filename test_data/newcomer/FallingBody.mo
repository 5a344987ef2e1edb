// A body falling from 10 m, the acceleration named as a variable.
model FallingBody
  parameter Real g = 9.81;
  Real h(start = 10);
  Real v(start = 0);
  Real a;
equation
  der(h) = v;
  der(v) = a;
  a = -g;
  annotation(experiment(StopTime = 1.4));
end FallingBody;
