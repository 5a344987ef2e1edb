package P
  block B
    input Real u;
    output Real y;
  equation
    y = asin(u);
  end B;
end P;
