// export: P.M
package P
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Gain
    parameter Real k = 1;
    RealInput u;
    RealOutput y;
  equation
    y = k*u;
  end Gain;
  model M
    Gain g;
  equation
    g.u = 2*g.y; // <- MC055
  end M;
end P;
