encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  block B
    input Real u;
    output Real y;
    Base.ContinuousState x;
  equation
    y = x;
    der(x) = u;
  end B;
end P;
