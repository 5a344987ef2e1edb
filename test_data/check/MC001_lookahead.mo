package P
  model M
    Gain g; // <- MC001
  end M;
  block Gain
    parameter Real k = 2*k0; // <- MC001
    parameter Real k0 = 1;
    input Real u;
    output Real y;
  equation
    y = k*u;
  end Gain;
end P;
