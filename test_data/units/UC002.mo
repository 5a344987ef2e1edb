// UC002: an equation whose sides (or operands) have different units, shown
// in derived form; the twin divides by a time.
package UC002
  block Bad
    input Real F(unit = "N");
    input Real s(unit = "m");
    input Real t(unit = "s");
    output Real P(unit = "W");
    output Real E(unit = "J");
  equation
    E = F*s;
    P = F*s + E;
  end Bad;
  block Good
    input Real F(unit = "N");
    input Real s(unit = "m");
    input Real t(unit = "s");
    output Real P(unit = "W");
    output Real E(unit = "J");
  equation
    E = F*s;
    P = (F*s + E)/t;
  end Good;
end UC002;
