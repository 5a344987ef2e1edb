package P
  block B
    input Real u;
    output Real y;
    Real z;
  equation
    y + z = u; // <- MC020
    z = 2*u;
  end B;
end P;
