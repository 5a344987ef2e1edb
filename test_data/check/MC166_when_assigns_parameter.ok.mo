encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A discrete variable holds what changes"
    parameter Real a(unit = "1/s") = 1 "Rate";
    parameter Real k0 = 1;
    Base.ContinuousState x(start = 1);
    discrete Real k(start = k0);
  equation
    when x < 0.5 then
      k = 2;
    end when;
    der(x) = -a*k*x;
  end M;
end P;
