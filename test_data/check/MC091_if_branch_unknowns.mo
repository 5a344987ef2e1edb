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
      z = 0; // <- MC091
      y = 0;
    end if;
  end B;
end P;
