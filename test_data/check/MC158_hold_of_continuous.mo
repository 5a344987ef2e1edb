package P
  type ContinuousState = Real;
  model Plant
    parameter Real Ts = 0.1;
    ContinuousState x(start = 1);
    Real u;
  equation
    u = 2*x;
    der(x) = -hold(u); // <- MC158
  end Plant;
end P;
