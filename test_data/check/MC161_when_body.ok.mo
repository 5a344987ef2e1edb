encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "The choice as an if-expression"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    input Boolean fast;
    Integer k(start = 0);
  equation
    when x < 0.5 then
      k = if fast then 2 else 1;
    end when;
    der(x) = -a*x;
  end M;
end P;
