// Newton's law of cooling: the state is a plain Real.
model Cooling
  parameter Real k = 0.3;
  parameter Real Ta = 293.15;
  Real T(start = 363.15);
equation
  der(T) = -k*(T - Ta);
  annotation(experiment(StopTime = 10));
end Cooling;
