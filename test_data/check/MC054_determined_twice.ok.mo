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
    RealOutput y;
  equation
    connect(c.y, y);
  end M;
end P;
