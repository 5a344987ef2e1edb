package P
  block Gain
    parameter Real k0 = 1;
    parameter Real k = 2*k0;
    input Real u;
    output Real y;
  equation
    y = k*u;
  end Gain;
  model M
    Gain g;
  equation
    g.u = time;
  end M;
end P;
