package P
  type ContinuousState = Real;
  connector RealOutput = output Real;
  block Sampler
    parameter Real Ts = 0.1;
    input Real u;
    RealOutput y;
    Real yk;
  equation
    yk = sample(u, Clock(Ts));
    y = hold(yk);
  end Sampler;
end P;
