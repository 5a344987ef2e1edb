package P
  model M
    output Real y;
  equation
    y = 1;
  end M;
end P;
