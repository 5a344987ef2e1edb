package P
  model M
    output Real y(unit = "m");
  equation
    y = 1;
  end M;
end P;
