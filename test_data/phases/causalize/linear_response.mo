// class: P.Slider
// A LinearResponse component: its residual is assigned like any
// sub-component input, its balance read like an output.
encapsulated package Base
  type ContinuousState = Real;
  model LinearResponse
    input Real residual;
    output Real balance;
  equation
    residual = 0;
  end LinearResponse;
end Base;
package P
  model Slider
    parameter Real TD = 0.01;
    input Real f;
    Base.LinearResponse cut;
    Base.ContinuousState s(start = 1);
    Base.ContinuousState v(start = 0);
    Real z;
  equation
    z = cut.balance;
    der(s) = v + z*TD;
    der(v) = z;
    cut.residual = f;
  end Slider;
end P;
