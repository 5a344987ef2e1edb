package P
  block Source
    parameter Integer n = 3;
    output Real y;
  equation
    y = n;
  end Source;
  block B
    Source s;
    output Real y;
  equation
    y = s.y;
  end B;
end P;
