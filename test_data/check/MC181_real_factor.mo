package P
  model Slow
    parameter Real k = 2.5;
    Real a, aH;
  equation
    a = sample(time, subSample(Clock(0.1), k)); // <- MC181
    aH = hold(a);
  end Slow;
end P;
