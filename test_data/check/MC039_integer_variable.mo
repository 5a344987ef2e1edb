package P
  block B
    Integer k;
    output Real y;
  equation
    y = k; // <- MC039
  end B;
end P;
