within Planar;
encapsulated package Examples "The planar examples, with the published parameters of the plain planar library"
  import B = Base;
  import Planar.Parts;
  import Planar.Joints;
  import Planar.Forces;
  import Planar.Sensors;
  import Planar.Interfaces;
  import Signals.Continuous;
  import Signals.Sources;

  // Controllers of the controlled examples. They live here rather than in
  // Signals because their gains carry units (angle in, force out).

  block LaggedPD "PD law with a lagged derivative: y = k*(u + Nd*(u - x)), x' = (u - x)/(Td/Nd)"
    parameter Real k(unit = "N/rad") = 1 "Gain";
    parameter Real Td(unit = "s") = 0.1 "Derivative time";
    parameter Real Nd = 10 "Derivative gain at high frequency";
    parameter Real x_start(unit = "rad") = 0 "Initial state of the derivative lag";
    Interfaces.RealInput u "Measured angle, in rad";
    Interfaces.RealOutput y "Force, in N";
    B.ContinuousState x(start = x_start, unit = "rad") "State of the derivative lag";
  equation
    der(x) = (u - x)*Nd/Td;
    y = k*(u + Nd*(u - x));
  end LaggedPD;

  block TrackingPD "PD law following an angle trajectory: y = kp*(u - u_ref) + kd*du"
    parameter Real kp(unit = "N/rad") = 1 "Proportional gain";
    parameter Real kd(unit = "N.s/rad") = 0 "Derivative gain";
    Interfaces.RealInput u "Measured angle, in rad";
    Interfaces.RealInput u_ref "Angle to follow, in rad";
    Interfaces.RealInput du "Measured angular velocity, in rad/s";
    Interfaces.RealOutput y "Force, in N";
  equation
    y = kp*(u - u_ref) + kd*du;
  end TrackingPD;

  model FreeBody "A body falling freely from rest"
    Parts.Fixed fixed;
    Joints.FreeMotion freeMotion;
    Parts.Body body(m = 1, I = 0.1);
  equation
    connect(fixed.flange, freeMotion.flange_a);
    connect(freeMotion.flange_b, body.flange);
  end FreeBody;

  model Pendulum "A free swinging pendulum released horizontally"
    Parts.Fixed fixed;
    Joints.Revolute revolute(phi_start = 0, w_start = 0);
    Parts.FixedTranslation fixedTranslation(r = {1, 0});
    Parts.Body body(m = 1, I = 0.1);
  equation
    connect(fixed.flange, revolute.flange_a);
    connect(revolute.flange_b, fixedTranslation.flange_a);
    connect(fixedTranslation.flange_b, body.flange);
  end Pendulum;

  model DoublePendulum "Double pendulum released horizontally (chaotic after a few seconds)"
    Parts.Fixed fixed;
    Joints.Revolute revolute(phi_start = 0, w_start = 0);
    Parts.FixedTranslation fixedTranslation(r = {1, 0});
    Parts.Body body(m = 1, I = 0.1);
    Joints.Revolute revolute1(phi_start = 0, w_start = 0);
    Parts.FixedTranslation fixedTranslation1(r = {0.4, 0});
    Parts.Body body1(m = 0.2, I = 0.01);
  equation
    connect(fixed.flange, revolute.flange_a);
    connect(revolute.flange_b, fixedTranslation.flange_a);
    connect(fixedTranslation.flange_b, body.flange);
    connect(fixedTranslation.flange_b, revolute1.flange_a);
    connect(revolute1.flange_b, fixedTranslation1.flange_a);
    connect(fixedTranslation1.flange_b, body1.flange);
  end DoublePendulum;

  model CraneCrab "A damped crane crab with a pendulum released at 150 degrees"
    Parts.Fixed fixed;
    Joints.Prismatic prismatic(e = {1, 0}, d = 10);
    Parts.Body body1(m = 1, I = 0.1) "Crab";
    Joints.Revolute revolute(phi_start = 2.6179938779915, w_start = 0);
    Parts.FixedTranslation fixedTranslation(r = {0, -1});
    Parts.Body body(m = 0.5, I = 0.1) "Load";
  equation
    connect(fixed.flange, prismatic.flange_a);
    connect(prismatic.flange_b, body1.flange);
    connect(prismatic.flange_b, revolute.flange_a);
    connect(revolute.flange_b, fixedTranslation.flange_a);
    connect(fixedTranslation.flange_b, body.flange);
  end CraneCrab;

  model CraneCrabControlled "An inverted pendulum on a crab, balanced by a PD controller"
    Parts.Fixed fixed;
    Joints.ActuatedPrismatic prismatic(e = {1, 0});
    Parts.Body body1(m = 250, I = 0) "Crab";
    Joints.Revolute revolute(phi_start = -0.34906585039887, w_start = 0);
    Parts.FixedTranslation fixedTranslation(r = {0, 2.5});
    Parts.Body body(m = 70, I = 0) "Upright load";
    Sensors.RelativeAngle angleSensor;
    // The published PID(k = -320*9.81*5, Td = 0.2, Nd = 10, Ti = 1e9) without
    // its negligible integral part, its derivative lag starting at 0.
    LaggedPD pd(k = -15696, Td = 0.2, Nd = 10, x_start = 0);
  equation
    connect(fixed.flange, prismatic.flange_a);
    connect(prismatic.flange_b, body1.flange);
    connect(prismatic.flange_b, revolute.flange_a);
    connect(revolute.flange_b, fixedTranslation.flange_a);
    connect(fixedTranslation.flange_b, body.flange);
    connect(prismatic.flange_b, angleSensor.flange_a);
    connect(revolute.flange_b, angleSensor.flange_b);
    connect(angleSensor.phi, pd.u);
    connect(pd.y, prismatic.u);
  end CraneCrabControlled;

  model InvertedCraneCrab "An upright pendulum on a crab made to follow an angle trajectory"
    // The published model inverts the plant. A causal library follows the
    // same filtered ramp with a tracking PD law on the crab force instead:
    // F = -200*(phi - phi_ref) - 30*w.
    Parts.Fixed fixed;
    Joints.ActuatedPrismatic prismatic(e = {1, 0});
    Parts.Body body1(m = 1, I = 0.1) "Crab";
    Joints.Revolute revolute(phi_start = -0.5, w_start = 0);
    Parts.FixedTranslation fixedTranslation(r = {0, 1});
    Parts.Body body(m = 0.5, I = 0.1) "Upright load";
    Sensors.RelativeAngle angleSensor;
    Sources.Ramp ramp(height = 0.5, duration = 0.5, offset = -0.5, startTime = 0);
    Continuous.FirstOrder reference(k = 1, T = 0.1, y_start = -0.5) "Angle trajectory, starting in steady state";
    TrackingPD pd(kp = -200, kd = -30);
  equation
    connect(fixed.flange, prismatic.flange_a);
    connect(prismatic.flange_b, body1.flange);
    connect(prismatic.flange_b, revolute.flange_a);
    connect(revolute.flange_b, fixedTranslation.flange_a);
    connect(fixedTranslation.flange_b, body.flange);
    connect(prismatic.flange_b, angleSensor.flange_a);
    connect(revolute.flange_b, angleSensor.flange_b);
    connect(ramp.y, reference.u);
    connect(angleSensor.phi, pd.u);
    connect(reference.y, pd.u_ref);
    connect(angleSensor.w, pd.du);
    connect(pd.y, prismatic.u);
  end InvertedCraneCrab;

  model PistonEngine "Crank, rod and piston: a kinematic loop with one degree of freedom"
    Parts.Fixed fixed;
    Joints.Revolute revoluteDrive(phi_start = 0, w_start = -2.5);
    Parts.Body bodyDrive(m = 1, I = 0.1);
    Parts.FixedTranslation crank(r = {0.3, 0});
    // The rod's start velocity keeps the piston on its axis: 0.9375 rad/s
    // absolute, so 3.4375 rad/s relative to the crank.
    Joints.Revolute revoluteDisc(phi_start = 0, w_start = 3.4375);
    Parts.FixedTranslation pistonRod(r = {0.8, 0});
    Joints.Prismatic prismatic(e = {1, 0}, s_start = 1.1, v_start = 0);
    Parts.Body bodyPiston(m = 3, I = 0.1);
    Joints.LoopRevolute revolutePiston "Closes the loop at the piston pin";
  equation
    connect(fixed.flange, revoluteDrive.flange_a);
    connect(revoluteDrive.flange_b, bodyDrive.flange);
    connect(revoluteDrive.flange_b, crank.flange_a);
    connect(crank.flange_b, revoluteDisc.flange_a);
    connect(revoluteDisc.flange_b, pistonRod.flange_a);
    connect(fixed.flange, prismatic.flange_a);
    connect(prismatic.flange_b, bodyPiston.flange);
    connect(pistonRod.flange_b, revolutePiston.flange_a);
    connect(prismatic.flange_b, revolutePiston.flange_b);
  end PistonEngine;

  model KinematicLoop "A linkage on a sprung slider with a pendulum: a loop with two degrees of freedom"
    Parts.Fixed fixed;
    Joints.Revolute revolute1(phi_start = 0.41151684606748806, w_start = 0);
    Parts.FixedTranslation fixedTranslation1(r = {0, -0.5});
    Joints.Revolute revolute4(phi_start = -0.69813170079773, w_start = 0);
    Parts.FixedTranslation fixedTranslation3(r = {0, -0.6});
    Parts.Body body(m = 1, I = 0.1);
    Joints.Prismatic prismatic(e = {1, 0}, s_start = 0.4, v_start = 0, c = 20, s_rel0 = 0.4, d = 4);
    Joints.Revolute revolute3(phi_start = -0.41151684606748806, w_start = 0);
    Parts.FixedTranslation fixedTranslation2(r = {0, -0.5});
    Joints.LoopRevolute revolute2 "Closes the loop where the two links meet";
  equation
    connect(fixed.flange, revolute1.flange_a);
    connect(revolute1.flange_b, fixedTranslation1.flange_a);
    connect(fixedTranslation1.flange_b, revolute4.flange_a);
    connect(revolute4.flange_b, fixedTranslation3.flange_a);
    connect(fixedTranslation3.flange_b, body.flange);
    connect(fixed.flange, prismatic.flange_a);
    connect(prismatic.flange_b, revolute3.flange_a);
    connect(revolute3.flange_b, fixedTranslation2.flange_a);
    connect(fixedTranslation1.flange_b, revolute2.flange_a);
    connect(fixedTranslation2.flange_b, revolute2.flange_b);
  end KinematicLoop;

  model SpringDamperBody "A free body hanging from a spring-damper attached off its centre of mass"
    Parts.Fixed fixed;
    Joints.FreeMotion freeMotion(r_start = {0.5, -1}, phi_start = 0.3);
    Parts.Body body(m = 1, I = 0.1);
    Parts.FixedTranslation arm(r = {0.2, 0});
    Forces.SpringDamper springDamper(c = 50, d = 1, s_unstretched = 1);
  equation
    connect(fixed.flange, freeMotion.flange_a);
    connect(freeMotion.flange_b, body.flange);
    connect(freeMotion.flange_b, arm.flange_a);
    connect(fixed.flange, springDamper.flange_a);
    connect(arm.flange_b, springDamper.flange_b);
  end SpringDamperBody;

  model FiveLinkPendulum "Five links with a body on every link, assembled from the same classes"
    Parts.Fixed fixed;
    Joints.Revolute rev1(phi_start = -0.8);
    Parts.FixedTranslation link1(r = {0.4, 0});
    Parts.Body body1(m = 0.4, I = 0.01);
    Joints.Revolute rev2(phi_start = 0.3);
    Parts.FixedTranslation link2(r = {0.4, 0});
    Parts.Body body2(m = 0.4, I = 0.01);
    Joints.Revolute rev3(phi_start = 0.3);
    Parts.FixedTranslation link3(r = {0.4, 0});
    Parts.Body body3(m = 0.4, I = 0.01);
    Joints.Revolute rev4(phi_start = 0.3);
    Parts.FixedTranslation link4(r = {0.4, 0});
    Parts.Body body4(m = 0.4, I = 0.01);
    Joints.Revolute rev5(phi_start = 0.3);
    Parts.FixedTranslation link5(r = {0.4, 0});
    Parts.Body body5(m = 0.4, I = 0.01);
  equation
    connect(fixed.flange, rev1.flange_a);
    connect(rev1.flange_b, link1.flange_a);
    connect(link1.flange_b, body1.flange);
    connect(link1.flange_b, rev2.flange_a);
    connect(rev2.flange_b, link2.flange_a);
    connect(link2.flange_b, body2.flange);
    connect(link2.flange_b, rev3.flange_a);
    connect(rev3.flange_b, link3.flange_a);
    connect(link3.flange_b, body3.flange);
    connect(link3.flange_b, rev4.flange_a);
    connect(rev4.flange_b, link4.flange_a);
    connect(link4.flange_b, body4.flange);
    connect(link4.flange_b, rev5.flange_a);
    connect(rev5.flange_b, link5.flange_a);
    connect(link5.flange_b, body5.flange);
  end FiveLinkPendulum;

end Examples;
