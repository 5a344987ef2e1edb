package P
  block B
    parameter Integer n = 3;
    output Real y[3];
  equation
    y = zeros(n); // <- MC098
  end B;
end P;
