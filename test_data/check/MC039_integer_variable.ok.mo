package P
  block B
    parameter Integer k = 2;
    output Real y;
  equation
    y = k;
  end B;
end P;
