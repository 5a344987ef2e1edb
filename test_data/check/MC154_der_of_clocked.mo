package P
  type ContinuousState = Real;
  block Sampler
    parameter Real Ts = 0.1;
    input Real u;
    output Real y;
    Real yk;
  equation
    yk = sample(u, Clock(Ts));
    y = der(yk); // <- MC154
  end Sampler;
end P;
