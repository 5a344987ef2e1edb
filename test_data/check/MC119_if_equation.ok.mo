package P
  block B
    input Real u;
    output Real y;
  equation
    y = if u > 0 then u else 0;
  end B;
end P;
