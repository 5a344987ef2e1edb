package P
  block B
    input Real u;
    output Real y;
    output Real z;
  equation
    z = u;
    y = 2*z;
  end B;
end P;
