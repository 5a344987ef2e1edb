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
    extends Base(k = 2);
    Pin p(v(start = 1));
  equation
    p.v = 1;
  end M;
end P;
