within Planar;
encapsulated package Forces "Massless force elements between two flanges"
  import B = Base;
  import SI = Base.Units;
  import Planar.Interfaces;

  // A force element neither moves anything nor is needed to move anything:
  // both of its flanges receive their motion from the chains they sit on, and
  // it determines the forces on both sides from the relative position and
  // velocity. The force acts along the line between the flange origins, so
  // it carries no torque. The tension f is positive when the element pulls
  // the two flanges together.

  model Spring "Linear spring between two flange origins"
    parameter SI.TranslationalSpringConstant c = 1 "Stiffness";
    parameter SI.Length s_unstretched = 0 "Unstretched length";
    parameter SI.Length s_small = 1e-6 "Length below which the direction is frozen (keeps 1/length finite)";
    Interfaces.FlangeTo flange_a "First end";
    Interfaces.FlangeTo flange_b "Second end";
    SI.Position dr[2] "Position of flange_b relative to flange_a";
    SI.Length length "Distance between the flanges";
    Real e[2] "Unit vector from flange_a to flange_b";
    SI.Force f "Tension";
  equation
    dr = flange_b.r0 - flange_a.r0;
    length = max(sqrt(dr*dr), s_small);
    e = dr/length;
    f = c*(length - s_unstretched);
    flange_a.f0 = -f*e;
    flange_b.f0 = f*e;
    flange_a.t = 0;
    flange_b.t = 0;
  end Spring;

  model Damper "Linear damper between two flange origins"
    parameter SI.TranslationalDampingConstant d = 1 "Damping constant";
    parameter SI.Length s_small = 1e-6 "Length below which the direction is frozen (keeps 1/length finite)";
    Interfaces.FlangeTo flange_a "First end";
    Interfaces.FlangeTo flange_b "Second end";
    SI.Position dr[2] "Position of flange_b relative to flange_a";
    SI.Length length "Distance between the flanges";
    Real e[2] "Unit vector from flange_a to flange_b";
    SI.Velocity length_dot "Rate of change of the distance";
    SI.Force f "Tension";
  equation
    dr = flange_b.r0 - flange_a.r0;
    length = max(sqrt(dr*dr), s_small);
    e = dr/length;
    length_dot = (flange_b.v0 - flange_a.v0)*e;
    f = d*length_dot;
    flange_a.f0 = -f*e;
    flange_b.f0 = f*e;
    flange_a.t = 0;
    flange_b.t = 0;
  end Damper;

  model SpringDamper "Linear spring and damper in parallel between two flange origins"
    parameter SI.TranslationalSpringConstant c = 1 "Stiffness";
    parameter SI.TranslationalDampingConstant d = 1 "Damping constant";
    parameter SI.Length s_unstretched = 0 "Unstretched length";
    parameter SI.Length s_small = 1e-6 "Length below which the direction is frozen (keeps 1/length finite)";
    Interfaces.FlangeTo flange_a "First end";
    Interfaces.FlangeTo flange_b "Second end";
    SI.Position dr[2] "Position of flange_b relative to flange_a";
    SI.Length length "Distance between the flanges";
    Real e[2] "Unit vector from flange_a to flange_b";
    SI.Velocity length_dot "Rate of change of the distance";
    SI.Force f "Tension";
  equation
    dr = flange_b.r0 - flange_a.r0;
    length = max(sqrt(dr*dr), s_small);
    e = dr/length;
    length_dot = (flange_b.v0 - flange_a.v0)*e;
    f = c*(length - s_unstretched) + d*length_dot;
    flange_a.f0 = -f*e;
    flange_b.f0 = f*e;
    flange_a.t = 0;
    flange_b.t = 0;
  end SpringDamper;

end Forces;
