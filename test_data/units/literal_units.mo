// A literal factor carries the unit an equation needs only when both
// sides are fully known (1000 a heat capacity in J/K); where a side has
// unknowns, literals stay 1 and inference goes on (y inferred in K).
// Transcendental functions accept time scaled by literals (exp(-time)).
package Lit
  type ContinuousState = Real;
  model Room
    parameter Real G(unit = "W/K") = 10;
    input Real heat(unit = "W");
    ContinuousState T(unit = "K", start = 300);
    output Real y;
    output Real u;
  equation
    der(T) = (heat - G*(T - 290))/1000;
    y = 2*T;
    u = exp(-time);
  end Room;
  model Wrong
    input Real x(unit = "m");
    output Real y(unit = "s");
  equation
    y = x + x;
  end Wrong;
end Lit;
