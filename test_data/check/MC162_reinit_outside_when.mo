encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A reinit that follows no event"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
  equation
    der(x) = -a*x;
    reinit(x, 1); // <- MC162
  end M;
end P;
