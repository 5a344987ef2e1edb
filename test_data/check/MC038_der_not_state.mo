package P
  block B
    input Real u;
    output Real y;
  equation
    y = der(u); // <- MC038
  end B;
end P;
