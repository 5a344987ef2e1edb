package P
  block B
    input Real u;
    output Real y[2];
  equation
    if u > 0 then
      y = {u, u};
    else
      y = {0, 0};
    end if;
  end B;
end P;
