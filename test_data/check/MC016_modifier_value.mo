package P
  model M
    output Real y(start(fixed = true)); // <- MC016
  equation
    y = 1;
  end M;
end P;
