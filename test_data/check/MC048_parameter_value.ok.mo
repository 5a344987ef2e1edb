// export: P.M
package P
  connector RealOutput = output Real;
  block Const
    parameter Real k;
    RealOutput y;
  equation
    y = k;
  end Const;
  model M
    Const c(k = 2);
  end M;
end P;
