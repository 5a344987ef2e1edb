package P
  model M
    output Real y(units = "m"); // <- MC018
  equation
    y = 1;
  end M;
end P;
