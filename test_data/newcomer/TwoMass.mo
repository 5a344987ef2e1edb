// Two masses and a spring joined by an acausal connector, as in the
// Modelica Standard Library's translational flanges.
package TwoMass
  connector Flange
    Real s;
    flow Real f;
  end Flange;
  model Mass
    parameter Real m = 1;
    Flange flange;
    Real s(start = 0);
    Real v(start = 0);
  equation
    s = flange.s;
    der(s) = v;
    m*der(v) = flange.f;
  end Mass;
  model Spring
    parameter Real c = 1;
    Flange a;
    Flange b;
  equation
    a.f = c*(a.s - b.s);
    a.f + b.f = 0;
  end Spring;
  model Oscillator
    Mass m1(s(start = 1));
    Mass m2;
    Spring spring;
  equation
    connect(m1.flange, spring.a);
    connect(spring.b, m2.flange);
  end Oscillator;
end TwoMass;
