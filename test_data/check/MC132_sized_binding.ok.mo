package P
  model M
    parameter Integer n = 3;
    parameter Integer m = 2;
    parameter Real G[n] = fill(2, n);
    output Real y;
  equation
    y = sum(G);
  end M;
end P;
