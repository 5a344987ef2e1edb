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
    y = s.n; // <- MC032
  end B;
end P;
