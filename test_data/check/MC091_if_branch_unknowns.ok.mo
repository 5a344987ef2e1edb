package P
  block B
    input Real u;
    output Real y;
    output Real z;
  equation
    if u > 0 then
      y = u;
      z = 1;
    else
      y = 0;
      z = 0;
    end if;
  end B;
end P;
