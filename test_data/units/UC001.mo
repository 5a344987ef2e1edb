// UC001: a unit string that is not a Modelica unit; the twin spells it right.
package UC001
  block Bad
    input Real u(unit = "furlong/fortnight");
    output Real y(unit = "m/s");
  equation
    y = u;
  end Bad;
  block Good
    input Real u(unit = "km/h");
    output Real y(unit = "km/h");
  equation
    y = u;
  end Good;
end UC001;
