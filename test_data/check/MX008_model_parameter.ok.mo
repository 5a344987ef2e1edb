// export: P.Const
// set: k=2
package P
  connector RealOutput = output Real;
  block Const
    parameter Real k;
    RealOutput y;
  equation
    y = k;
  end Const;
end P;
