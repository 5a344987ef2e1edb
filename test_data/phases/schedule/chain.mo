// A chain hung from a fixed point: positions go down the chain (each link
// places its lower end from its upper one), forces come back up (each link
// passes the force on its lower end to its upper one).
package Chain
  connector FlangeOn "Its owner determines the position"
    output Real s;
    flow Real f;
  end FlangeOn;
  connector FlangeTo "Its owner determines the force"
    input Real s;
    flow Real f;
  end FlangeTo;
  model Fixed
    FlangeOn flange;
  equation
    flange.s = 0;
  end Fixed;
  model Link
    parameter Real L = 1;
    FlangeTo a;
    FlangeOn b;
  equation
    b.s = a.s - L;
    a.f = -b.f;
  end Link;
  model Spring
    parameter Real c = 100;
    parameter Real s0 = -3;
    FlangeTo flange;
  equation
    flange.f = c*(flange.s - s0);
  end Spring;
  model Hang
    Fixed fixed;
    Link upper;
    Link lower;
    Spring spring;
  equation
    connect(fixed.flange, upper.a);
    connect(upper.b, lower.a);
    connect(lower.b, spring.flange);
  end Hang;
end Chain;
