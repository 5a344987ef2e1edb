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

  model Thrust "Force of a given magnitude along a direction fixed in the flange's frame"
    parameter Real e[2] = {0, 1} "Direction of the force, resolved in the flange's frame";
    Interfaces.FlangeTo flange "Where the force acts";
    Interfaces.RealInput u "Magnitude of the force, in N";
    Real R[2, 2] "Rotation from the flange's frame to the world frame";
  equation
    R = [cos(flange.phi), -sin(flange.phi); sin(flange.phi), cos(flange.phi)];
    // The force on this element is the reaction to the one it applies.
    flange.f0 = -u*(R*e);
    flange.t = 0;
  end Thrust;

  model AirResistance "Quadratic air drag against the driving direction of a vehicle"
    // The drag acts only while the vehicle moves forward, with the magnitude
    // 0.5*rho*area*c_W*v^2 of its forward speed v (max(v, 0), so it starts
    // smoothly from rest and never raises an event).
    parameter Real c_W = 0.5 "Drag coefficient";
    parameter SI.Area area = 2 "Frontal area";
    parameter SI.Density rho = 1.18 "Density of the air";
    parameter Real e[2] = {1, 0} "Driving direction, resolved in the flange's frame";
    Interfaces.FlangeTo flange "Where the drag acts";
    Real R[2, 2] "Rotation from the flange's frame to the world frame";
    Real e0[2] "Driving direction in the world frame";
    SI.Velocity v_long "Forward speed";
    SI.Velocity v_forward "Forward speed, zero when reversing";
    SI.Force f_drag "Drag force against the driving direction";
  equation
    R = [cos(flange.phi), -sin(flange.phi); sin(flange.phi), cos(flange.phi)];
    e0 = R*e;
    v_long = flange.v0*e0;
    v_forward = noEvent(max(v_long, 0));
    f_drag = 0.5*rho*area*c_W*v_forward^2;
    flange.f0 = f_drag*e0;
    flange.t = 0;
  end AirResistance;

end Forces;
