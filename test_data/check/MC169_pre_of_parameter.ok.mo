encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "The parameter read as it is"
    parameter Real a(unit = "1/s") = 1 "Rate";
    parameter Integer n0 = 1;
    Base.ContinuousState x(start = 1);
    Integer n(start = 0);
  equation
    der(x) = -a*x;
    when x < 0.5 then
      n = n0 + 1;
    end when;
  end M;
end P;
