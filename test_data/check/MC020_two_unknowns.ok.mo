package P
  block B
    input Real u;
    output Real y;
    Real z;
  equation
    z = 2*u;
    y + z = u;
  end B;
end P;
