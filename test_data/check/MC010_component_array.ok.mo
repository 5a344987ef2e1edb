package P
  block Source
    output Real y;
  equation
    y = 1;
  end Source;
  model M
    Source sources[3];
  end M;
end P;
