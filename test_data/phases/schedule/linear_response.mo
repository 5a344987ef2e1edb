// A LinearResponse balance: the system chooses the slider's cut force
// (`cut.balance`) so that its residual vanishes; the schedule takes the
// balance as known and computes the residual from it.
encapsulated package Base
  type ContinuousState = Real;
  type RealWithDerivative = Real;
  model LinearResponse
    input Real residual;
    output Real balance;
  equation
    residual = 0;
  end LinearResponse;
end Base;
package Slide
  connector FlangeOn
    output Real s;
    Base.RealWithDerivative v;
    flow Real f;
  end FlangeOn;
  connector FlangeTo
    input Real s;
    Base.RealWithDerivative v;
    flow Real f;
  end FlangeTo;
  model Fixed
    FlangeOn flange;
  equation
    flange.s = 0;
    flange.v = 0;
  end Fixed;
  model Slider
    parameter Real TD = 0.01;
    FlangeTo a;
    FlangeOn b;
    Base.LinearResponse cut;
    Base.ContinuousState s(start = 1);
    Base.ContinuousState v(start = 0);
    Real z;
  equation
    z = cut.balance;
    der(s) = v + z*TD;
    der(v) = z;
    b.s = a.s + s;
    b.v = a.v + v;
    a.f = -b.f;
    cut.residual = b.f;
  end Slider;
  model Body
    parameter Real m = 2;
    parameter Real g = -9.81;
    FlangeTo flange;
  equation
    flange.f = m*der(flange.v) - m*g;
  end Body;
  model Fall
    Fixed fixed;
    Slider slider;
    Body body;
  equation
    connect(fixed.flange, slider.a);
    connect(slider.b, body.flange);
  end Fall;
end Slide;
