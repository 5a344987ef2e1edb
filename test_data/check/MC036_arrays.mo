package P
  block B
    parameter Integer n = 2;
    input Real u;
    output Real y[n];
    output Real z[n];
    output Real w;
  equation
    y[1:2] = {u, u}; // <- MC036
    for i in 1:n loop
      z[i] = u;
    end for;
    w = z[end];
  end B;
end P;
