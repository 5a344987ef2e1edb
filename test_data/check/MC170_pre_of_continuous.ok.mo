encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "Inside a when, v is its value at the event"
    parameter Real e = 0.7;
    Base.ContinuousState h(start = 1);
    Base.ContinuousState v(start = 0);
  equation
    der(h) = v;
    der(v) = -9.81;
    when h <= 0 then
      reinit(v, -e*v);
    end when;
  end M;
end P;
