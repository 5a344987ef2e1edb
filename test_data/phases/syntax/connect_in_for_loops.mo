model M
  parameter Integer n = 3;
  Cell c[n];
equation
  for i in 1:n - 1 loop
    connect(c[i].b, c[i + 1].a);
  end for;
  for i in 1:2, j in 1:3 loop
    connect(a[i], b[j]);
  end for;
end M;
