encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A when on a Real"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Integer k(start = 0);
  equation
    der(x) = -a*x;
    when x then // <- MC172
      k = 1;
    end when;
  end M;
end P;
