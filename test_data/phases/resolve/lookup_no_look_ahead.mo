// A type is visible only below its declaration (no look-ahead): `Early`
// finds `Gain`, `Late` names it before it is declared (MC001 at line 6).
package Lookup
  type Gain = Real(unit = "1");
  block Late
    parameter Later k = 2;
    output Real y;
  equation
    y = k;
  end Late;
  type Later = Real(unit = "1");
  block Early
    parameter Gain k = 3;
    output Real y;
  equation
    y = 2*k;
  end Early;
end Lookup;
