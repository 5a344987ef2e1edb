package P
  connector RealInput = input Real;
  connector RealOutput = output Real;
  partial block SISO
    RealInput u;
    RealOutput y;
  end SISO;
  block Gain
    extends SISO;
    parameter Real k = 1;
  equation
    y = k*u;
  end Gain;
end P;
