encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "One when, two branches"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
  equation
    der(x) = -a*x;
    when x < 0.5 then
      reinit(x, 1);
    elsewhen time > 3 then
      reinit(x, 2);
    end when;
  end M;
end P;
