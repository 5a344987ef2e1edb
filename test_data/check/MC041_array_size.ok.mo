package P
  block B
    parameter Integer n = 1;
    output Real y[n];
  equation
    for i in 1:n loop
      y[i] = 1;
    end for;
  end B;
end P;
