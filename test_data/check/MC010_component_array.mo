package P
  block Source
    output Real y;
  equation
    y = 1;
  end Source;
  model M
    Source sources[3, 2]; // <- MC010
  end M;
end P;
