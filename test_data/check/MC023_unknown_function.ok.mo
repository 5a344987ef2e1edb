package P
  block B
    input Real u;
    output Real y;
  equation
    y = u^2;
  end B;
end P;
