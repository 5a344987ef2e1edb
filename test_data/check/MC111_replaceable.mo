package P
  block Gain
    parameter Real k = 1;
    input Real u;
    output Real y;
  equation
    y = k*u;
  end Gain;
  model M
    replaceable Gain g; // <- MC111
  end M;
end P;
