package P
  block B
    parameter Integer n = 2;
    output Real y[2*n];
  equation
    for i in 1:n loop
      y[2*i] = i; // <- MC045
      y[2*i - 1] = i; // <- MC045
    end for;
  end B;
end P;
