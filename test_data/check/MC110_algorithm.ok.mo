package P
  block B
    input Real u;
    output Real y;
  equation
    y = 2*u;
  end B;
end P;
