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
    Gain g;
  equation
    connect(c.k, g.u); // <- MC058
  end M;
end P;
