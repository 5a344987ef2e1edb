package P
  model Base
    parameter Real k = 1;
    output Real y;
  equation
    y = k;
  end Base;
  model M
    extends Base(k = 2);
  end M;
end P;
