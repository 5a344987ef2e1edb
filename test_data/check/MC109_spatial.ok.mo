package P
  block B
    input Real u;
    output Real y;
  equation
    y = u;
  end B;
end P;
