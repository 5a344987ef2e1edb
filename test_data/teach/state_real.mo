model Charge
  parameter Real C = 1e-3;
  Real v(start = 0);
  Real i;
equation
  i = 1e-3;
  C*der(v) = i;
end Charge;
