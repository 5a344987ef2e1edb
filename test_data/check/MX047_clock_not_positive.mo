// export: P.Loop
// set: fast.Ts=0
package P
  type ContinuousState = Real;
  block Sampler
    parameter Real Ts = 0.1;
    parameter Integer f = 2;
    input Real u;
    output Real y;
    Real uk, yk;
  equation
    uk = sample(u, Clock(Ts)); // <- MX047
    yk = sample(u, subSample(Clock(Ts), f)); // <- MX047
    y = hold(uk) + hold(yk);
  end Sampler;
  model Loop
    parameter Real T(unit = "s") = 1;
    Sampler fast;
    Sampler slow(f = 0);
    ContinuousState x(start = 1);
  equation
    fast.u = x;
    slow.u = x;
    der(x) = -(fast.y + slow.y)/T;
  end Loop;
end P;
