encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A when that assigns a continuous-time Real"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    Real tHit(start = 0);
  equation
    der(x) = -a*x;
    when x < 0.5 then
      tHit = time; // <- MC165
    end when;
  end M;
end P;
