package P
  model Base
    parameter Real k = 1;
    output Real y;
  equation
    y = k;
  end Base;
  model M
    extends Base(redeclare Real k = 2); // <- MC111
  end M;
end P;
