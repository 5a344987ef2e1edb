encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  block B "A first-order lag instead of a delay"
    parameter Real T = 0.1;
    input Real u;
    output Real y;
    Base.ContinuousState x;
  equation
    y = x;
    der(x) = (u - x)/T;
  end B;
end P;
