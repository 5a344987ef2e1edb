package P
  block Source
    output Real y1;
    output Real y2;
  equation
    y1 = 1;
    y2 = 2;
  end Source;
  block B
    Source s;
    output Real z;
  equation
    z = s.y1;
  end B;
end P;
