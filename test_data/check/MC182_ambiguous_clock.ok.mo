package P
  model Counter "A tick counter of the slow partition, named by firstTick's argument"
    parameter Real Ts = 0.1;
    parameter Integer f = 2;
    Real fast, slow, fastH, slowH, nH;
    Integer n(start = -1);
  equation
    fast = sample(time, Clock(Ts));
    slow = sample(time, subSample(Clock(Ts), f));
    n = if firstTick(slow) then 0 else previous(n) + 1;
    fastH = hold(fast);
    slowH = hold(slow);
    nH = hold(n);
  end Counter;
end P;
