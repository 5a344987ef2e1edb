package P
  block B
    input Real u;
    output Real y;
    Real v;
  equation
    if v > 0 then // <- MC094
      y = u;
    else
      y = 0;
    end if;
    v = 2*u;
  end B;
end P;
