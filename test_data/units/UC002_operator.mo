// UC002 inside an equation: the diagnostic points at the `+` whose operands
// disagree (column 11, `(m + v*m)`), not at the whole equation; the twin
// multiplies the mass by a dimensionless ratio.
package UC002_operator
  block Bad
    input Real m(unit = "kg");
    input Real v(unit = "m/s");
    output Real y(unit = "kg");
  equation
    y = 2*(m + v*m);
  end Bad;
  block Good
    input Real m(unit = "kg");
    input Real r(unit = "1");
    output Real y(unit = "kg");
  equation
    y = 2*(m + r*m);
  end Good;
end UC002_operator;
