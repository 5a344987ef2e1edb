// A series RLC circuit switched onto a constant voltage.
model SeriesRLC
  parameter Real V = 1;
  parameter Real R = 1;
  parameter Real L = 1;
  parameter Real C = 0.25;
  Real i(start = 0);
  Real vC(start = 0);
  Real vR;
  Real vL;
equation
  vR = R*i;
  V = vR + vL + vC;
  L*der(i) = vL;
  C*der(vC) = i;
  annotation(experiment(StopTime = 10));
end SeriesRLC;
