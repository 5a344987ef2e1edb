// Annotations wherever Modelica allows them: parsed, then dropped, except the
// experiment of a class's own annotation (number literals only).
package Annotated "with annotations" annotation(version = "1.0", uses(Modelica(version = "4.0.0")));
  import SI = Base.Units.SI annotation(x = 1);
  extends Base annotation(IconMap(primitivesVisible = false));
  model M "desc"
    parameter Real k = 1 "gain" annotation(Dialog(tab = "General", enable = k > 0 and not false));
    Real x annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}}, rotation = 90)));
  equation
    x = k "an equation" annotation(__Vendor_flag = true);
    connect(a, b) annotation(Line(points = {{0, 0}, {1, 1}}, color = {0, 0, 127}));
    annotation(Diagram(graphics = {Text(extent = {{-1, 1}, {1, -1}}, textString = "%name")}));
  end M;
  model Run
    Real y annotation(experiment(StopTime = 5));
  equation
    y = 1 annotation(experiment(StopTime = 6));
    annotation(experiment(StartTime = -1, StopTime = 2.5e1, Tolerance = 1e-7, Interval = +0.05));
  end Run;
  model Early "the class annotation before the equations; other names and values left out"
    annotation(Documentation(info = ""), experiment(StopTime = 3, Tolerance = 2*1e-3, Algorithm = "Dassl"));
  equation
  end Early;
  annotation(Documentation(info = "<html><p>\"quoted\"</p></html>", revisions = ""), experiment(StopTime = 99));
end Annotated;
