encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    Base.ContinuousState x;
  initial equation // <- MC115
    x = 1;
  equation
    der(x) = -x;
  end M;
end P;
