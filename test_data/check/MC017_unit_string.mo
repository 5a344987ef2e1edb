package P
  model M
    output Real y(unit = 1); // <- MC017
  equation
    y = 1;
  end M;
end P;
