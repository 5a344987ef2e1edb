package P
  model Rates "Two partitions of one base clock: an equation that reads both would run at the rate of whichever it names first"
    parameter Real Ts = 0.1;
    parameter Integer f = 3;
    Real a, b, c1, c2, c1H, c2H;
  equation
    a = sample(time, Clock(Ts));
    b = sample(time, subSample(Clock(Ts), f));
    c1 = b - a; // <- MC180
    c2 = a - b; // <- MC180
    c1H = hold(c1);
    c2H = hold(c2);
  end Rates;
end P;
