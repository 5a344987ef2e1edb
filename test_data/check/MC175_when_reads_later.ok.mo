encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "The condition reads the value before the event"
    parameter Real step = 1;
    Integer counter(start = 0);
    discrete Real next(start = 1);
  equation
    when time >= pre(next) then
      counter = pre(counter) + 1;
      next = pre(next) + step;
    end when;
  end M;
end P;
