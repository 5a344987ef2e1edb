package P
  model Base
    output Real y;
  equation
    y = 1;
  end Base;
  model M
    extends Base;
  end M;
end P;
