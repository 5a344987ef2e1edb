encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A discrete Real determined in continuous time"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    discrete Real y;
  equation
    y = 2*x; // <- MC173
    der(x) = -a*y;
  end M;
end P;
