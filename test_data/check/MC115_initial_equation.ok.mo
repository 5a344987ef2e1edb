encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    parameter Real k(unit = "1/s") = 1;
    Base.ContinuousState x(start = 1);
  equation
    der(x) = -k*x;
  end M;
end P;
