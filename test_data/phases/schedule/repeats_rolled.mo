// An array of springs hung from one fixed point: every element's block runs
// in one wave, in a row (the run the system image stores as one strided
// step), and so do the copies of the `for` loop of connects.
package Repeats
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
  model Row
    parameter Integer n = 4;
    Fixed fixed;
    Spring spring[n];
  equation
    for i in 1:n loop
      connect(fixed.flange, spring[i].flange);
    end for;
  end Row;
end Repeats;
