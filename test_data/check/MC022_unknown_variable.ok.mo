package P
  block Source
    output Real y;
  equation
    y = 1;
  end Source;
  block B
    Source s;
    output Real y;
    output Real z;
  equation
    y = s.y + 1;
    z = s.y;
  end B;
end P;
