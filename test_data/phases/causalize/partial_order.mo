// class: P.M
// Equations read in source order each determine one unknown: the
// assignments come out in the order the equations were written.
package Base
  type ContinuousState = Real;
end Base;
package P
  model M
    parameter Real k = 2;
    Base.ContinuousState x(start = 1);
    Real a;
    Real b;
    output Real y;
  equation
    a = k*x;
    der(x) = -a;
    b = a + 1;
    y = b*x;
  end M;
end P;
