package P
  block Source
    parameter Integer n = 2;
    output Real y[n];
  equation
    for i in 1:n loop
      y[i] = i;
    end for;
  end Source;
  block B
    Source s;
    output Real z;
  equation
    z = s.y[1]; // <- MC033
  end B;
end P;
