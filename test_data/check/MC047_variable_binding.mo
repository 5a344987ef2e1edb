encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  block B
    input Real u;
    Base.ContinuousState x = 2*u; // <- MC047
  equation
    der(x) = u;
  end B;
end P;
