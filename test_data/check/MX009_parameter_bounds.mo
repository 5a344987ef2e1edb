package P
  connector RealOutput = output Real;
  block Source
    parameter Integer n(min = 2) = 3 "At least two samples";
    parameter Real gain(min = 0, max = 10) = 1;
    RealOutput y;
  equation
    y = gain*n;
  end Source;
  model M
    Source low(n = 1); // <- MX009
    Source high(gain = 11); // <- MX009
  end M;
end P;
