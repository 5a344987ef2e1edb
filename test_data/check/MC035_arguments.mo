package P
  block B
    input Real u;
    output Real y;
    output Real z;
  equation
    y = atan2(u); // <- MC035
    z = sin(x = u); // <- MC035
  end B;
end P;
