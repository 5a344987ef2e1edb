encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    Base.ContinuousState x;
    Real y;
  initial equation
    x = 1;
    y = 2; // <- MC115
  equation
    der(x) = -x;
    y = 2*x;
  end M;
end P;
