package P
  block B
    parameter Integer n = 2;
    output Real y[2*n];
  equation
    for i in 1:2*n loop
      y[i] = i;
    end for;
  end B;
end P;
