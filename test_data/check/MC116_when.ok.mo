package P
  block B
    input Real u;
    output Real y;
  equation
    y = if u > 1 then 1 else 0;
  end B;
end P;
