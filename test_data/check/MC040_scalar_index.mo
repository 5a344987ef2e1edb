package P
  block B
    input Real u;
    output Real y;
  equation
    y = u[1]; // <- MC040
  end B;
end P;
