model M
  Real x(start = );
  Real y;
equation
  y = 1 +;
  y = 2;
algorithm
  y := ;
  y := 3;
end N;
model Q
  Real z;
equaton
  z = 1;
end Q;
