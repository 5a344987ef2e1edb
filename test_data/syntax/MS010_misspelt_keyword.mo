model M
  parameter Real k = 1;
  Real x;
  Real y(start = 0);
equaton
  x = k;
  der(y) = x;
end M;
