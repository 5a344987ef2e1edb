encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "One when per element"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x1(start = 1);
    Base.ContinuousState x2(start = 2);
    Integer k1(start = 0);
    Integer k2(start = 0);
  equation
    when x1 < 0.5 then
      k1 = pre(k1) + 1;
    end when;
    when x2 < 0.5 then
      k2 = pre(k2) + 1;
    end when;
    der(x1) = -a*x1;
    der(x2) = -a*x2;
  end M;
end P;
