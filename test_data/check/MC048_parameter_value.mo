package P
  connector RealOutput = output Real;
  // A class may leave a parameter unset (the methodology's listings do):
  // whoever instantiates it must give the value.
  block Const
    parameter Real k;
    RealOutput y;
  equation
    y = k;
  end Const;
  model M
    Const c; // <- MC048
  end M;
end P;
