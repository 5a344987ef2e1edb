// export: P.Const
package P
  connector RealOutput = output Real;
  // Checks clean: a class may leave its parameter to whoever instantiates
  // it. Exported on its own, nobody does.
  block Const
    parameter Real k; // <- MX008
    RealOutput y;
  equation
    y = k;
  end Const;
end P;
