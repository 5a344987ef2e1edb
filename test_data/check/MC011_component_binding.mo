package P
  block Source
    parameter Real k = 1;
    output Real y;
  equation
    y = k;
  end Source;
  model M
    Source s = 2; // <- MC011
  end M;
end P;
