package P
  type ContinuousState = Real;
  block Sampler
    input Real u;
    output Real y;
    Real yk;
  equation
    yk = sample(u, Clock(0.1 + 0*u)); // <- MC153
    y = hold(yk);
  end Sampler;
end P;
