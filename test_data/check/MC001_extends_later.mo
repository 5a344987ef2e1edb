package P
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Gain
    extends SISO; // <- MC001
    parameter Real k = 1;
  equation
    y = k*u;
  end Gain;
  partial block SISO
    RealInput u;
    RealOutput y;
  end SISO;
end P;
