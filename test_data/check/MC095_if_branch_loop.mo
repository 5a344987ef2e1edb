package P
  block B
    input Real u;
    output Real y[2];
  equation
    if u > 0 then
      for i in 1:2 loop // <- MC095
        y[i] = u;
      end for;
    else
      y = {0, 0};
    end if;
  end B;
end P;
