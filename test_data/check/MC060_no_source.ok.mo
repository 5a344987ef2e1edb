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
    Const c;
    Gain g1;
    Gain g2;
  equation
    connect(c.y, g1.u);
    connect(c.y, g2.u);
  end M;
end P;
