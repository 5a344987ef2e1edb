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
  block Vector
    RealOutput y1;
    RealOutput y2;
  equation
    y1 = 1;
    y2 = 2;
  end Vector;
  model M
    Vector v;
    Gain g;
  equation
    connect(v.y1, g.u);
  end M;
end P;
