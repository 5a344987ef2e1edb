// export: P.M
package P
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Gain
    parameter Real k = 1;
    RealInput u;
    RealOutput y;
  equation
    y = k*u;
  end Gain;
  model Inner
    Gain g;
  equation
    g.u = 1;
  end Inner;
  model M
    Inner a;
  equation
    a.g.u = 2; // <- MC054
  end M;
end P;
