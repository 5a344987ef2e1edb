package P
  block B
    input Real u;
    output Real y;
    Real v;
  equation
    v = 2*u;
    if v > 0 then
      y = u;
    else
      y = 0;
    end if;
  end B;
end P;
