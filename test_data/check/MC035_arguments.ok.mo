package P
  block B
    input Real u;
    output Real y;
    output Real z;
  equation
    y = atan2(u, 1);
    z = sin(u);
  end B;
end P;
