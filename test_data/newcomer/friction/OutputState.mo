// A first-order lag whose state is also its output.
model OutputState
  parameter Real T = 2;
  output Real y(start = 1);
equation
  T*der(y) = -y;
  annotation(experiment(StopTime = 4));
end OutputState;
