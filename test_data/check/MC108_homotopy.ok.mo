package P
  block B
    input Real u;
    output Real y;
  equation
    y = u*u;
  end B;
end P;
