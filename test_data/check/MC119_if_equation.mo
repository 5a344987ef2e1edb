package P
  block B
    input Real u;
    output Real y;
  equation
    if u > 0 then // <- MC119
      y = u;
    else
      y = 0;
    end if;
  end B;
end P;
