encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "The variable is declared discrete"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    discrete Real tHit(start = 0);
  equation
    der(x) = -a*x;
    when x < 0.5 then
      tHit = time;
    end when;
  end M;
end P;
