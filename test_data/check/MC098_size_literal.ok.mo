package P
  block B
    parameter Integer n = 3;
    output Real y[3];
  equation
    y = zeros(3);
  end B;
end P;
