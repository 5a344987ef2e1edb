model M
  Real x
  Real y;
equation
  x = ;
end M;
