encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A condition that reads what its when determines"
    parameter Real step = 1;
    Integer counter(start = 0);
    discrete Real next(start = 1);
  equation
    when time >= next then // <- MC175
      counter = pre(counter) + 1;
      next = pre(next) + step;
    end when;
  end M;
end P;
