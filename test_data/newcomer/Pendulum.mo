// A linearised pendulum, derivative equations written before the states.
model Pendulum
  parameter Real g = 9.81;
  parameter Real L = 2;
  Real phi(start = 0.1);
  Real w(start = 0);
equation
  der(w) = -g/L*phi;
  der(phi) = w;
  annotation(experiment(StopTime = 5));
end Pendulum;
