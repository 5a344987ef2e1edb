package P
  model Rates "Two partitions of one base clock, each equation on one: the values cross through subSample and superSample"
    parameter Real Ts = 0.1;
    parameter Integer f = 3;
    Real a, b, c1, c2, c1H, c2H;
  equation
    a = sample(time, Clock(Ts));
    b = sample(time, subSample(Clock(Ts), f));
    c1 = b - subSample(a, f);
    c2 = a - superSample(b, f);
    c1H = hold(c1);
    c2H = hold(c2);
  end Rates;
end P;
