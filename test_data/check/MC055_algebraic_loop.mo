// export: P.M
package P
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Const
    parameter Real k = 1;
    RealOutput y;
  equation
    y = k;
  end Const;
  block Gain
    parameter Real k = 1;
    RealInput u;
    RealOutput y;
  equation
    y = k*u;
  end Gain;
  model M
    Gain g1;
    Gain g2;
  equation
    connect(g1.y, g2.u); // <- MC055
    connect(g2.y, g1.u);
  end M;
end P;
