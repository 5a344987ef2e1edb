encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "reinit of the class's own state"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Real y;
  equation
    y = 2*x;
    der(x) = -a*x;
    when x < 0.5 then
      reinit(x, 1);
    end when;
  end M;
end P;
