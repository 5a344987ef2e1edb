encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    parameter Real k = 2;
    Base.ContinuousState x(start = 1);
  initial equation
    x = k; // <- MC097
  equation
    der(x) = k - x;
  end M;
end P;
