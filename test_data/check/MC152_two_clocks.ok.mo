package P
  type ContinuousState = Real;
  block TwoRates
    parameter Real Ts = 0.1;
    parameter Integer n = 3;
    input Real u;
    output Real y;
    Real a, b;
  equation
    a = sample(u, Clock(Ts));
    b = sample(u, subSample(Clock(Ts), n));
    y = hold(a) + hold(b);
  end TwoRates;
end P;
