package P
  block B
    parameter Integer n = 3;
    output Real y[n];
  equation
    y = zeros(n);
  end B;
end P;
