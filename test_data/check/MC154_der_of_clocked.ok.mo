package P
  type ContinuousState = Real;
  block Sampler
    parameter Real Ts = 0.1;
    input Real u;
    output Real y;
    Real yk;
  equation
    yk = sample(u, Clock(Ts));
    y = hold(yk);
  end Sampler;
end P;
