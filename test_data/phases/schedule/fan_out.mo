// One connector read by two: the position of the fixed point goes to both
// springs, and the force on it is the sum of theirs.
package Fan
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
    output Real load "The force the fixed point takes";
  equation
    flange.s = 0;
    load = flange.f;
  end Fixed;
  model Spring
    parameter Real c = 100;
    parameter Real s0 = -3;
    FlangeTo flange;
  equation
    flange.f = c*(flange.s - s0);
  end Spring;
  model Two
    Fixed fixed;
    Spring left(c = 50);
    Spring right;
  equation
    connect(fixed.flange, left.flange);
    connect(fixed.flange, right.flange);
  end Two;
end Fan;
