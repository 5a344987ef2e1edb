encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    parameter Real k = 2;
    parameter Real tau(unit = "s") = 1;
    Base.ContinuousState x;
  initial equation
    x = k;
  equation
    der(x) = (k - x)/tau;
  end M;
end P;
