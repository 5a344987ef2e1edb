package P
  block B
    parameter Integer n = 2;
    input Real u;
    output Real y[n];
    output Real w;
  equation
    for i in 1:n loop
      y[i] = u;
    end for;
    w = y[end];
  end B;
end P;
