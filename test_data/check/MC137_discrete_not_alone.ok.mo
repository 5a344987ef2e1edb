package P
  block B
    input Real u;
    output Real y;
    Integer k "A count";
  equation
    k = if u > 2 then 1 else 0;
    y = k;
  end B;
end P;
