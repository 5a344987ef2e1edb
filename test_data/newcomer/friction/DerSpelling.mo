model DerSpelling "A pendulum whose angle has no unit: der(phi) is spelled as w, which an equation equates with it"
  parameter Real d(unit = "1/s") = 0.1;
  parameter Real g = 9.81;
  Base.ContinuousState phi(start = 1);
  Base.ContinuousState w(unit = "rad/s", start = 0);
equation
  der(phi) = w;
  der(w) = -g*phi - d*w;
end DerSpelling;
