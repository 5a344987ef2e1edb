package P
  block B
    input Real u;
    output Real y;
    Integer k "A count";
  equation
    2*k = if u > 2 then 2 else 0; // <- MC137
    y = k;
  end B;
end P;
