package P
  block B
    input Real u;
    output Real y; // <- MC029
    output Real z;
  equation
    z = u;
  end B;
end P;
