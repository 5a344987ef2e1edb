encapsulated package Elements
  import SI = Modelica.Units.SI;
  import Modelica.Constants;
  import Modelica.Math.*;
  import Modelica.Blocks.{Sources, Math} "several";
  extends Base.Partial(final n = 3, p(start = 1) = 2) annotation(Icon);

  model A
    parameter Real k = 2 "gain";
    parameter Real k2(min = 0, max = 10, unit = "1") = k*2 "first" + " second" annotation(Dialog(group = "x"));
    constant Integer n = 3;
    input Real u annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
    output Real y "output";
    flow Real f;
    stream Real h;
    discrete Real d;
    Real x[n](each start = 0, each final fixed = true);
    Real[2] p, q[3];
    SI.Length l(start = 1.5, displayUnit = "mm") = 2 if k > 1 "conditional";
    .Modelica.SIunits.Time t;
    'quoted name' w;
    redeclare final inner outer replaceable Real r;
    replaceable model Sub = Base.Sub constrainedby Base.Sub(k = 1) "constrained";
    replaceable Real z constrainedby Real;
    Sub s(redeclare Real v = 3, each final c.d(e = 1) = 4);
  public
    Real pub;
  protected
    Real prot;
    annotation(experiment(StopTime = 1));
  end A;
end Elements;
