package P
  model Counter "A tick counter in a class of two partitions: which one it counts is not said"
    parameter Real Ts = 0.1;
    parameter Integer f = 2;
    Real fast, slow, fastH, slowH, nH;
    Integer n(start = -1);
  equation
    fast = sample(time, Clock(Ts));
    slow = sample(time, subSample(Clock(Ts), f));
    n = previous(n) + 1; // <- MC182
    fastH = hold(fast);
    slowH = hold(slow);
    nH = hold(n);
  end Counter;
end P;
