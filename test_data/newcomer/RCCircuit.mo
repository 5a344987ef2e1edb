// A newcomer's RC circuit in plain Modelica: a state declared by der(),
// equations in the order of the textbook.
model RCCircuit
  parameter Real V = 1 "source voltage";
  parameter Real R = 1000;
  parameter Real C = 1e-3;
  Real v(start = 0) "capacitor voltage";
  Real i "current";
equation
  C*der(v) = i;
  i = (V - v)/R;
  annotation(experiment(StopTime = 5));
end RCCircuit;
