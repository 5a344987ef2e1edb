package P
  block Source
    output Real y;
  equation
    y = 1;
  end Source;
  model M
    Source source1;
    Source source2;
  end M;
end P;
