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
    output Real w;
  equation
    y = x + 1; // <- MC022
    z = s.out; // <- MC022
    w = s; // <- MC022
  end B;
end P;
