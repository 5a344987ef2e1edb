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
    der(x + 1) = u; // <- MC037
  end B;
end P;
