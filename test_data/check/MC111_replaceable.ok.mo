package P
  block Gain
    parameter Real k = 1;
    input Real u;
    output Real y;
  equation
    y = k*u;
  end Gain;
  model M
    Gain g;
    input Real u;
  equation
    connect(u, g.u);
  end M;
end P;
