package P
  block B
    parameter Integer n = 2;
    output Real y;
  equation
    y = n;
  end B;
end P;
