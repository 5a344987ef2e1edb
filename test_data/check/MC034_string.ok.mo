package P
  block B
    output Real y "one";
  equation
    y = 1;
  end B;
end P;
