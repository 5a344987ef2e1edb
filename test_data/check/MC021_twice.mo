package P
  block B
    input Real u;
    output Real y;
  equation
    y = 2*u;
    y = 3*u; // <- MC021
    u = 1; // <- MC021
  end B;
end P;
