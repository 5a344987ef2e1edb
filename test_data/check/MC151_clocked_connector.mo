package P
  type ContinuousState = Real;
  connector RealOutput = output Real;
  block Sampler
    parameter Real Ts = 0.1;
    input Real u;
    RealOutput y;
  equation
    y = sample(u, Clock(Ts)); // <- MC151
  end Sampler;
end P;
