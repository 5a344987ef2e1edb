encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "One variable assigned in two when equations"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Integer mode(start = 0);
  equation
    der(x) = a*(1 - 2*x);
    when x > 0.3 then
      mode = 1;
    end when;
    when x > 0.4 then
      mode = 2; // <- MC168
    end when;
  end M;
end P;
