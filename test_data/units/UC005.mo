// UC005: a transcendental function of a quantity with a unit; the twin
// multiplies by an angular frequency first.
package UC005
  block Bad
    input Real t(unit = "s");
    output Real y;
  equation
    y = sin(t);
  end Bad;
  block Good
    parameter Real w(unit = "rad/s") = 2;
    input Real t(unit = "s");
    output Real y;
  equation
    y = sin(w*t) + exp(-t/(1/w));
  end Good;
end UC005;
