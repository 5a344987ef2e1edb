within Planar;
encapsulated package Rotational "One-dimensional rotational mechanics with assumed causality (shafts, wheels' spin)"
  import B = Base;
  import SI = Base.Units;
  import Planar.Interfaces;

  // A rotational flange is one signal, one potential that inherits its
  // causality and one flow of the inverse causality, like a planar flange's
  // rotation: (phi, w, tau). The owner of a FlangeOn determines the motion
  // and learns the torque; the owner of a FlangeTo receives the motion (with
  // the angular acceleration carried by w) and answers with a torque. As
  // everywhere in Modelica, tau is the torque acting on the owner through the
  // flange. Inertias own the states and choose their acceleration through a
  // declared LinearResponse, like the planar joints, so that a torque that
  // depends on the acceleration (a wheel pushing a vehicle) is torn, not
  // differentiated.

  connector FlangeOn "Rotational flange whose owner determines the rotation"
    output SI.Angle phi "Absolute angle";
    Interfaces.AngularVelocityInt w "Angular velocity; carries the angular acceleration";
    flow SI.Torque tau "Torque on the owner through this flange; known to the owner";
  end FlangeOn;

  connector FlangeTo "Rotational flange whose owner receives the rotation"
    input SI.Angle phi "Absolute angle";
    Interfaces.AngularVelocityInt w "Angular velocity; carries the angular acceleration";
    flow SI.Torque tau "Torque on the owner through this flange; determined by the owner";
  end FlangeTo;

  model Fixed "Flange fixed at a constant angle"
    parameter SI.Angle phi0 = 0 "Angle of the flange";
    FlangeOn flange "Fixed flange";
  equation
    // The velocity is a constant, so the acceleration it carries is zero.
    flange.phi = phi0;
    flange.w = 0;
  end Fixed;

  model Inertia "Rotating mass whose states determine the motion of its flange"
    parameter SI.Inertia J = 1 "Moment of inertia (zero gives a massless shaft)";
    parameter SI.Time TD = 1e-4 "Dialectic time constant";
    parameter SI.Angle phi_start = 0 "Initial angle";
    parameter SI.AngularVelocity w_start = 0 "Initial angular velocity";
    FlangeOn flange "Shaft end; everything connected to it turns with the inertia";
    B.ContinuousState phi(start = phi_start, unit = "rad") "Angle";
    B.ContinuousState w(start = w_start, unit = "rad/s") "Kinetic angular velocity";
    SI.AngularAcceleration z "Angular acceleration";
  protected
    B.LinearResponse cut "Chooses z so that Euler's law holds with every torque on the flange";
  equation
    z = cut.balance;
    // The dialectic position law of the planar joints: the angle leads the
    // integrated velocity by TD*z.
    der(phi) = w + TD*z;
    der(w) = z;
    flange.phi = phi;
    flange.w = w;
    cut.residual = J*z - flange.tau;
  end Inertia;

  model InertiaWithStops "Rotating mass whose angle two hard stops bound: it rebounds from a stop with e times its speed, or rests there"
    parameter SI.Inertia J = 1 "Moment of inertia";
    parameter SI.Time TD = 1e-4 "Dialectic time constant";
    parameter SI.Angle phi_min = -1 "Lower stop";
    parameter SI.Angle phi_max = 1 "Upper stop (above phi_min)";
    parameter Real e(unit = "1") = 0.5 "Coefficient of restitution at the stops";
    parameter SI.AngularVelocity w_min = 1e-3 "Rebound speed below which the inertia rests at the stop";
    parameter SI.Angle phi_start = 0 "Initial angle, between the stops";
    parameter SI.AngularVelocity w_start = 0 "Initial angular velocity";
    FlangeOn flange "Shaft end; everything connected to it turns with the inertia";
    B.ContinuousState phi(start = phi_start, unit = "rad") "Angle";
    B.ContinuousState w(start = w_start, unit = "rad/s") "Kinetic angular velocity";
    SI.AngularAcceleration z "Angular acceleration";
    Boolean resting(start = false) "Held at a stop by a torque towards it";
    Integer impacts(start = 0) "Impacts on the stops so far";
  protected
    B.LinearResponse cut "Chooses z so that Euler's law holds with every torque on the flange (z = 0 at rest)";
  equation
    // At a stop the velocity is reversed and scaled by e, and the angle is
    // put on the stop (the importer finds the impact a hair past it); a
    // rebound slower than w_min leaves the inertia resting there until the
    // torque on it turns away from the stop.
    when phi >= phi_max then
      resting = e*w < w_min;
      impacts = pre(impacts) + 1;
      reinit(w, if e*w < w_min then 0 else -e*w);
      reinit(phi, phi_max);
    elsewhen phi <= phi_min then
      resting = -e*w < w_min;
      impacts = pre(impacts) + 1;
      reinit(w, if -e*w < w_min then 0 else -e*w);
      reinit(phi, phi_min);
    elsewhen pre(resting) and (if phi >= phi_max then flange.tau < 0 else flange.tau > 0) then
      resting = false;
      impacts = pre(impacts);
    end when;
    z = cut.balance;
    der(phi) = w + TD*z;
    der(w) = z;
    flange.phi = phi;
    flange.w = w;
    cut.residual = J*z - (if resting then 0 else flange.tau);
  end InertiaWithStops;

  model ConstantTorque "Constant torque driving a flange"
    parameter SI.Torque tau_constant = 1 "Torque acting on whatever the flange is connected to";
    FlangeTo flange "Driven flange";
  equation
    flange.tau = -tau_constant;
  end ConstantTorque;

  model Torque "Torque given by a signal, driving a flange"
    Interfaces.RealInput tau "Torque acting on whatever the flange is connected to, in N.m";
    FlangeTo flange "Driven flange";
  equation
    flange.tau = -tau;
  end Torque;

  model SpringDamper "Linear torsion spring and damper in parallel between two flanges"
    parameter SI.RotationalSpringConstant c = 0 "Torsional stiffness";
    parameter SI.RotationalDampingConstant d = 0 "Torsional damping";
    parameter SI.Angle phi_rel0 = 0 "Relative angle at which the spring is relaxed";
    FlangeTo flange_a "First end";
    FlangeTo flange_b "Second end";
    SI.Angle phi_rel "Angle of flange_b relative to flange_a";
    SI.AngularVelocity w_rel "Relative angular velocity";
    SI.Torque tau "Torque transmitted from flange_a to flange_b";
  equation
    phi_rel = flange_b.phi - flange_a.phi;
    w_rel = flange_b.w - flange_a.w;
    tau = c*(phi_rel - phi_rel0) + d*w_rel;
    flange_b.tau = tau;
    flange_a.tau = -tau;
  end SpringDamper;

  model IdealDifferential "Open differential: the carrier turns with the mean of the two side shafts and splits its torque equally"
    // A massless planetary set with ring-to-sun ratio -2, the drive on the
    // carrier. The side shafts' motion is known, so the carrier's follows;
    // the torque on the carrier is known, so the side shafts' follow.
    FlangeTo flange_left "Left side shaft";
    FlangeTo flange_right "Right side shaft";
    FlangeOn carrier "Drive input";
  equation
    carrier.phi = (flange_left.phi + flange_right.phi)/2;
    carrier.w = (flange_left.w + flange_right.w)/2;
    flange_left.tau = -carrier.tau/2;
    flange_right.tau = -carrier.tau/2;
  end IdealDifferential;

  model SpeedSensor "Angular velocity of a flange, as a signal; exerts no torque"
    FlangeTo flange "Measured flange";
    Interfaces.RealOutput w "Angular velocity, in rad/s";
  equation
    w = flange.w;
    flange.tau = 0;
  end SpeedSensor;

end Rotational;
