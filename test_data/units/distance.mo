// The distance of two points to the origin (seed paper, section 3.1): the
// first point declares its units, the second has them inferred from the
// declared unit of its distance through sqrt (rational exponents).
package Distance
  model Points
    input Real x1(unit = "m");
    input Real y1(unit = "m");
    input Real x2;
    input Real y2;
    output Real d1;
    output Real d2(unit = "m");
  equation
    d1 = sqrt(x1^2 + y1^2);
    d2 = sqrt(x2^2 + y2^2);
  end Points;
end Distance;
