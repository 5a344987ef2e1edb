// Mass, spring and damper as one model, written as in a Modelica course.
model MassSpringDamper
  parameter Real m = 1;
  parameter Real k = 4;
  parameter Real d = 0.4;
  Real x(start = 1);
  Real v(start = 0);
  Real f "spring and damper force";
equation
  der(x) = v;
  m*der(v) = f;
  f = -k*x - d*v;
  annotation(experiment(StopTime = 10));
end MassSpringDamper;
