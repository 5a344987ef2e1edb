encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "An if-equation inside a when"
    parameter Real a(unit = "1/s") = 1 "Rate";
    Base.ContinuousState x(start = 1);
    input Boolean fast;
    Integer k(start = 0);
  equation
    when x < 0.5 then
      if fast then // <- MC161
        k = 2;
      else
        k = 1;
      end if;
    end when;
    der(x) = -a*x;
  end M;
end P;
