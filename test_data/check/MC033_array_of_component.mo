package P
  block Source
    output Real y[2];
  equation
    y[1] = 1;
    y[2] = 2;
  end Source;
  block B
    Source s;
    output Real z;
  equation
    z = s.y[1]; // <- MC033
  end B;
end P;
