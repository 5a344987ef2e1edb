encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    parameter Real k = 2;
    Base.ContinuousState x;
  initial equation
    x = k;
  equation
    der(x) = k - x;
  end M;
end P;
