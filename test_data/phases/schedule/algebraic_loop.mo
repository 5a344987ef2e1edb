// Two gains that feed each other: an algebraic loop without a declared
// LinearResponse, refused with both connections named.
package Loop
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Gain
    parameter Real k = 1;
    RealInput u;
    RealOutput y;
  equation
    y = k*u;
  end Gain;
  model Ring
    Gain g1;
    Gain g2;
  equation
    connect(g1.y, g2.u);
    connect(g2.y, g1.u);
  end Ring;
end Loop;
