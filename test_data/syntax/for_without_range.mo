model M
  Real x[3];
equation
  for i loop
    x[i] = 1;
  end for;
  x[1] = 2;
end M;
