encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "Every branch assigns the same variables"
    parameter Real r(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Integer a(start = 0);
    Integer b(start = 0);
  equation
    der(x) = r*(1 - 2*x);
    when x > 0.3 then
      a = 1;
      b = 1;
    elsewhen x > 0.4 then
      a = 2;
      b = pre(b);
    end when;
  end M;
end P;
