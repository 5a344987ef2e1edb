encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "The count is the class's own"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Integer count(start = 0);
  equation
    der(x) = -a*x;
    when x < 0.5 then
      count = 1;
    end when;
  end M;
end P;
