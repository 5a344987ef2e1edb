package P
  model M
    parameter Integer n = 2;
    Real c[n];
  equation
    for i in 1:n loop
      c[i] = i;
    end for;
  end M;
end P;
