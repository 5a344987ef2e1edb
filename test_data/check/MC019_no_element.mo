package P
  connector Pin
    output Real v;
    flow Real i;
  end Pin;
  model Base
    parameter Real k = 1;
    output Real y;
  equation
    y = k;
  end Base;
  model M
    extends Base(gain = 2); // <- MC019
    Pin p(V(start = 1)); // <- MC019
  equation
    p.v = 1;
  end M;
end P;
