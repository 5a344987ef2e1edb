package P
  block B
    input Real u;
    output Real y;
  equation
    y = square(u); // <- MC023
  end B;
end P;
