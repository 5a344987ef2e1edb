// UC007: a display unit of another dimension than the unit; the twin
// shows a temperature in degC.
package UC007
  block Bad
    input Real T(unit = "K", displayUnit = "m");
    output Real y(unit = "K");
  equation
    y = T;
  end Bad;
  block Good
    input Real T(unit = "K", displayUnit = "degC");
    output Real y(unit = "K");
  equation
    y = T;
  end Good;
end UC007;
