encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A when that assigns a parameter"
    parameter Real a(unit = "1/s") = 1 "Rate";
    parameter Real k = 1;
    Base.ContinuousState x(start = 1);
  equation
    der(x) = -a*k*x;
    when x < 0.5 then
      k = 2; // <- MC166
    end when;
  end M;
end P;
