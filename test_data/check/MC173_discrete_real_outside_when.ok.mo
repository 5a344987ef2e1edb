encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A Real that changes continuously is not discrete"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Real y;
  equation
    y = 2*x;
    der(x) = -a*y;
  end M;
end P;
