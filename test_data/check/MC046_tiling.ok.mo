package P
  block B
    parameter Integer n = 4;
    output Real y[n];
  equation
    y[1] = 0;
    for i in 2:n loop
      y[i] = i;
    end for;
  end B;
end P;
