package P
  block B
    input Real u;
    output Real y;
  equation
    sin(y) = u; // <- MC024
  end B;
end P;
