package P
  model M
    output Real y(start = 0);
  equation
    y = 1;
  end M;
end P;
