package P
  block B
    input Integer k;
    output Real y;
  equation
    y = k; // <- MC039
  end B;
end P;
