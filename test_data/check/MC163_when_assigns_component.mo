encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model Counter
    Integer count(start = 0);
  equation
    count = 0;
  end Counter;
  model M "A when that assigns a variable of a component"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Counter c;
  equation
    der(x) = -a*x;
    when x < 0.5 then
      c.count = 1; // <- MC163
    end when;
  end M;
end P;
