package P
  model Slow
    parameter Integer k = 2;
    Real a, aH;
  equation
    a = sample(time, subSample(Clock(0.1), k));
    aH = hold(a);
  end Slow;
end P;
