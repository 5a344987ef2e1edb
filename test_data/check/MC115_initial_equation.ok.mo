encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    Base.ContinuousState x(start = 1);
  equation
    der(x) = -x;
  end M;
end P;
