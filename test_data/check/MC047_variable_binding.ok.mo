encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  block B
    input Real u;
    output Real y = 2*u "a binding of a variable is an equation";
    Base.ContinuousState x(start = 0);
  equation
    der(x) = u;
  end B;
end P;
