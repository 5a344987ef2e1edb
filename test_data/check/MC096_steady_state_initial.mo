encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    parameter Real k = 2;
    parameter Real tau(unit = "s") = 1;
    Base.ContinuousState x;
  initial equation
    der(x) = 0; // <- MC096
  equation
    der(x) = (k - x)/tau;
  end M;
end P;
