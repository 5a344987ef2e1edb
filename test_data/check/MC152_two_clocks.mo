package P
  type ContinuousState = Real;
  block TwoRates
    parameter Real Ts = 0.1, Tf = 0.03;
    input Real u;
    output Real y;
    Real a, b;
  equation
    a = sample(u, Clock(Ts));
    b = sample(u, Clock(Tf)); // <- MC152
    y = hold(a) + hold(b);
  end TwoRates;
end P;
