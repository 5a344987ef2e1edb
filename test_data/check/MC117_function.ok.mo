package P
  block F
    input Real x;
    output Real y;
  equation
    y = 2*x;
  end F;
end P;
