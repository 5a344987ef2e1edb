package P
  block B
    input Real u;
    output Real y;
    Integer k "A count";
  equation
    k = u/2; // <- MC136
    y = k;
  end B;
end P;
