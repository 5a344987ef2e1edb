encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "pre of a continuous-time variable"
    parameter Real e = 0.7;
    Base.ContinuousState h(start = 1);
    Base.ContinuousState v(start = 0);
  equation
    der(h) = v;
    der(v) = -9.81;
    when h <= 0 then
      reinit(v, -e*pre(v)); // <- MC170
    end when;
  end M;
end P;
