within Planar;
encapsulated package Examples "The planar examples, with the published parameters of the plain planar library"
  import B = Base;
  import Planar.Parts;
  import Planar.Joints;
  import Planar.Forces;
  import Planar.Sensors;
  import Planar.Interfaces;
  import Planar.Rotational;
  import Planar.Wheels;
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
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 5, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 6, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 5, Tolerance = 1e-06, Interval = 0.01));
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
    annotation(experiment(StartTime = 0, StopTime = 2, Tolerance = 1e-06, Interval = 0.01));
  end FiveLinkPendulum;

  // --- Wheels and vehicles ----------------------------------------------

  model CounterSpin "A wheel thrown forward with counter-spin on a dry-friction road"
    // The published CounterSpin: the slip 2 + 0.1*15 = 3.5 m/s first makes
    // the wheel slide and turns its spin around; near 2 s the slip reaches
    // the steep adhesion part of the characteristic and the wheel rolls.
    // TD = 0 in every joint and inertia: the rigid position law q' = v of the
    // published library. TD = 1e-4 s would lead the positions by TD times the
    // change of velocity (docs/planar.md, "The dialectic time constant TD").
    Parts.Fixed fixed "The road";
    Joints.DryFrictionRolling rolling(R = 0.1, TD = 0, vAdhesion = 0.01, vSlide = 0.03, mu_A = 0.5,
      mu_S = 0.15, x_start = 0, vx_start = 2, phi_start = 0, w_start = 15);
    Parts.Body body(m = 0.01, I = 0.0005);
  equation
    connect(fixed.flange, rolling.flange_a);
    connect(rolling.flange_b, body.flange);
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
  end CounterSpin;

  model WheelBasedCraneCrab "A pendulum hanging from the hub of a wheel that rolls without slip"
    // TD = 0 in every joint and inertia: the rigid position law q' = v of the
    // published library. TD = 1e-4 s would lead the positions by TD times the
    // change of velocity (docs/planar.md, "The dialectic time constant TD").
    // Here it matters most: the pendulum whips through its lowest point near
    // 1 s and 3.2 s, where the lead of TD = 1e-4 s is 1.58 rad/s in rolling.w.
    Parts.Fixed fixed "The road";
    Joints.IdealRolling rolling(R = 0.3, TD = 0, x_start = 0, phi_start = 0, w_start = 0);
    Parts.Body body(m = 1, I = 0.1) "Wheel";
    Joints.Revolute revolute(TD = 0, phi_start = 1.3962634015955, w_start = 0) "Pendulum joint, relative to the turning wheel";
    Parts.FixedTranslation fixedTranslation(r = {1, 0});
    Parts.Body body1(m = 2, I = 0.2) "Pendulum";
  equation
    connect(fixed.flange, rolling.flange_a);
    connect(rolling.flange_b, body.flange);
    connect(rolling.flange_b, revolute.flange_a);
    connect(revolute.flange_b, fixedTranslation.flange_a);
    connect(fixedTranslation.flange_b, body1.flange);
    // Tolerance 1e-8: at 1e-6, FMPy's CVode leaves the published solution by
    // more than 1e-3 here (docs/planar.md, "Matching the published library").
    annotation(experiment(StartTime = 0, StopTime = 4.5, Tolerance = 1e-08, Interval = 0.01));
  end WheelBasedCraneCrab;

  model TestIdealWheel "An ideal wheel driven round a circle by a constant torque (no gravity)"
    // The wheel sits on a prismatic joint along a free revolute arm; its
    // lateral constraint keeps the radius at 1 m, its rolling constraint
    // ties the arm's rotation to the shaft's.
    // TD = 0 in every joint and inertia: the rigid position law q' = v of the
    // published library. TD = 1e-4 s would lead the positions by TD times the
    // change of velocity (docs/planar.md, "The dialectic time constant TD").
    Parts.Fixed fixed;
    Joints.Revolute revolute(TD = 0, phi_start = 0, w_start = 0);
    Joints.Prismatic prismatic(e = {0, 1}, TD = 0, s_start = 1, v_start = 0);
    Parts.Body body(m = 10, I = 1, g = {0, 0});
    Wheels.IdealWheel idealWheel(radius = 0.3, e = {1, 0});
    Rotational.Inertia inertia(J = 1, TD = 0, phi_start = 0, w_start = 0);
    Rotational.ConstantTorque engineTorque(tau_constant = 2);
  equation
    connect(fixed.flange, revolute.flange_a);
    connect(revolute.flange_b, prismatic.flange_a);
    connect(prismatic.flange_b, body.flange);
    connect(prismatic.flange_b, idealWheel.frame);
    connect(inertia.flange, idealWheel.flange);
    connect(inertia.flange, engineTorque.flange);
    annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-06, Interval = 0.01));
  end TestIdealWheel;

  model TestDryFrictionWheel "A dry-friction wheel driven round a circle by a constant torque (no gravity)"
    // As TestIdealWheel, but the wheel slips: the torque spins the shaft
    // up, the longitudinal friction drives the arm round, and the lateral
    // friction holds the body against the centrifugal force until it slides
    // outwards along the prismatic joint.
    // TD = 0 in every joint and inertia: the rigid position law q' = v of the
    // published library. TD = 1e-4 s would lead the positions by TD times the
    // change of velocity (docs/planar.md, "The dialectic time constant TD").
    Parts.Fixed fixed;
    Joints.Revolute revolute(TD = 0, phi_start = 0, w_start = 0);
    Joints.Prismatic prismatic(e = {0, 1}, TD = 0, s_start = 1, v_start = 0);
    Parts.Body body(m = 10, I = 1, g = {0, 0});
    Wheels.DryFrictionWheel dryFrictionWheel(radius = 0.3, e = {1, 0}, N = 100, vAdhesion = 0.1,
      vSlide = 0.3, mu_A = 0.8, mu_S = 0.4);
    Rotational.Inertia inertia(J = 1, TD = 0, phi_start = 0, w_start = 0);
    Rotational.ConstantTorque engineTorque(tau_constant = 2);
  equation
    connect(fixed.flange, revolute.flange_a);
    connect(revolute.flange_b, prismatic.flange_a);
    connect(prismatic.flange_b, body.flange);
    connect(prismatic.flange_b, dryFrictionWheel.frame);
    connect(inertia.flange, dryFrictionWheel.flange);
    connect(inertia.flange, engineTorque.flange);
    // Tolerance 1e-8: at 1e-6, FMPy's CVode leaves the published solution by
    // more than 1e-3 here (docs/planar.md, "Matching the published library").
    annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-08, Interval = 0.01));
  end TestDryFrictionWheel;

  model TestSlipBasedWheel "A slip-based wheel driven round a circle by a constant torque (no gravity)"
    // TD = 0 in every joint and inertia: the rigid position law q' = v of the
    // published library. TD = 1e-4 s would lead the positions by TD times the
    // change of velocity (docs/planar.md, "The dialectic time constant TD").
    Parts.Fixed fixed;
    Joints.Revolute revolute(TD = 0, phi_start = 0, w_start = 0);
    Joints.Prismatic prismatic(e = {0, 1}, TD = 0, s_start = 1, v_start = 0);
    Parts.Body body(m = 10, I = 1, g = {0, 0});
    Wheels.SlipBasedWheel slipBasedWheel(radius = 0.3, e = {1, 0}, N = 100, sAdhesion = 0.04,
      sSlide = 0.12, vAdhesion_min = 0.05, vSlide_min = 0.15, mu_A = 0.8, mu_S = 0.4);
    Sources.Constant dynamicLoad(k = 0);
    Rotational.Inertia inertia(J = 1, TD = 0, phi_start = 0, w_start = 0);
    Rotational.ConstantTorque engineTorque(tau_constant = 2);
  equation
    connect(fixed.flange, revolute.flange_a);
    connect(revolute.flange_b, prismatic.flange_a);
    connect(prismatic.flange_b, body.flange);
    connect(prismatic.flange_b, slipBasedWheel.frame);
    connect(dynamicLoad.y, slipBasedWheel.dynamicLoad);
    connect(inertia.flange, slipBasedWheel.flange);
    connect(inertia.flange, engineTorque.flange);
    // Tolerance 1e-8: at 1e-6, FMPy's CVode leaves the published solution by
    // more than 1e-3 here (docs/planar.md, "Matching the published library").
    annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-08, Interval = 0.01));
  end TestSlipBasedWheel;

  model SingleTrack "A single-track vehicle on ideal wheels: rear drive, a castor front wheel with trail"
    // The chassis is a free body (FreeMotion at the rear axle); the front
    // wheel hangs on a free revolute joint 0.1 m behind its axis and starts
    // turned by 40 degrees. The published wheels have no inertia on their
    // shafts, so each shaft here is a massless Rotational.Inertia.
    // TD = 0 in every joint and inertia: the rigid position law q' = v of the
    // published library. TD = 1e-4 s would lead the positions by TD times the
    // change of velocity (docs/planar.md, "The dialectic time constant TD").
    Parts.Fixed fixed;
    Joints.FreeMotion freeMotion(TD = 0) "Chassis at the rear axle";
    Parts.Body bodyRear(m = 10, I = 0.1, g = {0, 0});
    Wheels.IdealWheel idealWheelRear(radius = 0.3, e = {0, 1});
    Rotational.Inertia rearShaft(J = 0, TD = 0) "Massless shaft of the rear wheel";
    Rotational.ConstantTorque engineTorque(tau_constant = 2);
    Parts.FixedTranslation chassis(r = {0, 1}) "Rear axle to the steering axis";
    Forces.AirResistance airResistance(c_W = 0.4, area = 2, rho = 1.18, e = {0, 1});
    Joints.Revolute revolute(TD = 0, phi_start = 0.69813170079773, w_start = 0) "Free steering axis";
    Parts.FixedTranslation trail(r = {0, -0.1});
    Parts.Body bodyFront(m = 2, I = 0.1, g = {0, 0});
    Wheels.IdealWheel idealWheelFront(radius = 0.3, e = {0, 1});
    Rotational.Inertia frontShaft(J = 0, TD = 0) "Massless shaft of the front wheel";
  equation
    connect(fixed.flange, freeMotion.flange_a);
    connect(freeMotion.flange_b, bodyRear.flange);
    connect(freeMotion.flange_b, idealWheelRear.frame);
    connect(rearShaft.flange, idealWheelRear.flange);
    connect(rearShaft.flange, engineTorque.flange);
    connect(freeMotion.flange_b, chassis.flange_a);
    connect(chassis.flange_b, airResistance.flange);
    connect(chassis.flange_b, revolute.flange_a);
    connect(revolute.flange_b, trail.flange_a);
    connect(trail.flange_b, bodyFront.flange);
    connect(trail.flange_b, idealWheelFront.frame);
    connect(frontShaft.flange, idealWheelFront.flange);
    annotation(experiment(StartTime = 0, StopTime = 6, Tolerance = 1e-06, Interval = 0.01));
  end SingleTrack;

  model TwoTrack "A two-track vehicle on dry-friction wheels: rear drive through a differential, steered by the published periodic torque pulse"
    // The chassis is a free body at the middle of the rear axle; the front
    // axle is 2 m ahead, the wheels 0.75 m to either side. Both front wheels
    // hang on DrivenRevolute joints with a 0.05 m trail, turned by one
    // massless steering shaft that starts at 25 degrees to the left. The
    // published model turns its steering joints the other way round (chassis
    // at frame_b), so its angle -25 degrees and pulse of -2 N.m are +25
    // degrees and +2 N.m here. The pulse is the published one: 2 N.m for 30 %
    // of every 2 s period from 1 s on (Signals.Sources.Pulse has its first
    // ten periods, up to 21 s; the published horizon is 3 s).
    // TD = 0 in every joint and inertia: the rigid position law q' = v of the
    // published library. TD = 1e-4 s would lead the positions by TD times the
    // change of velocity (docs/planar.md, "The dialectic time constant TD").
    Parts.Fixed fixed;
    Joints.FreeMotion freeMotion(TD = 0) "Chassis at the middle of the rear axle";
    Parts.Body body1(m = 300, I = 0.1, g = {0, 0}) "Chassis";
    Parts.FixedTranslation fixedTranslation1(r = {0, 2}) "Rear axle to front axle";
    // Rear axle, driven through the differential.
    Parts.FixedTranslation rearLeft(r = {-0.75, 0});
    Parts.FixedTranslation rearRight(r = {0.75, 0});
    Wheels.DryFrictionWheel wheelJoint2(radius = 0.25, e = {0, 1}, N = 1500, vAdhesion = 0.1,
      vSlide = 0.3, mu_A = 1, mu_S = 0.7) "Rear left";
    Wheels.DryFrictionWheel wheelJoint3(radius = 0.25, e = {0, 1}, N = 1500, vAdhesion = 0.1,
      vSlide = 0.3, mu_A = 1, mu_S = 0.7) "Rear right";
    Rotational.Inertia inertia1(J = 1, TD = 0) "Rear left wheel";
    Rotational.Inertia inertia2(J = 1, TD = 0) "Rear right wheel";
    Rotational.IdealDifferential differentialGear;
    Rotational.ConstantTorque constantTorque1(tau_constant = 25) "Drive torque";
    // Front axle, steered.
    Parts.FixedTranslation frontLeft(r = {-0.75, 0});
    Parts.FixedTranslation frontRight(r = {0.75, 0});
    Joints.DrivenRevolute revolute2 "Left steering joint";
    Joints.DrivenRevolute revolute "Right steering joint";
    Rotational.Inertia steering(J = 0, TD = 0, phi_start = 0.43633231299858, w_start = 0) "Massless steering shaft";
    Rotational.Torque torque "Steering torque";
    Sources.Pulse pulse(amplitude = 2, width = 30, period = 2, startTime = 1) "Steering torque pulse";
    Parts.FixedTranslation leftTrail(r = {0, -0.05});
    Parts.FixedTranslation rightTrail(r = {0, -0.05});
    Parts.Body body(m = 100, I = 1, g = {0, 0}) "Front left wheel carrier";
    Parts.Body body2(m = 100, I = 1, g = {0, 0}) "Front right wheel carrier";
    Wheels.DryFrictionWheel wheelJoint1(radius = 0.25, e = {0, 1}, N = 1000, vAdhesion = 0.1,
      vSlide = 0.3, mu_A = 1, mu_S = 0.7) "Front left";
    Wheels.DryFrictionWheel wheelJoint4(radius = 0.25, e = {0, 1}, N = 1000, vAdhesion = 0.1,
      vSlide = 0.3, mu_A = 1, mu_S = 0.7) "Front right";
    Rotational.Inertia inertia(J = 1, TD = 0) "Front left wheel";
    Rotational.Inertia inertia3(J = 1, TD = 0) "Front right wheel";
  equation
    connect(fixed.flange, freeMotion.flange_a);
    connect(freeMotion.flange_b, body1.flange);
    connect(freeMotion.flange_b, fixedTranslation1.flange_a);
    connect(freeMotion.flange_b, rearLeft.flange_a);
    connect(freeMotion.flange_b, rearRight.flange_a);
    connect(rearLeft.flange_b, wheelJoint2.frame);
    connect(rearRight.flange_b, wheelJoint3.frame);
    connect(inertia1.flange, wheelJoint2.flange);
    connect(inertia2.flange, wheelJoint3.flange);
    connect(inertia1.flange, differentialGear.flange_left);
    connect(inertia2.flange, differentialGear.flange_right);
    connect(differentialGear.carrier, constantTorque1.flange);
    connect(fixedTranslation1.flange_b, frontLeft.flange_a);
    connect(fixedTranslation1.flange_b, frontRight.flange_a);
    connect(frontLeft.flange_b, revolute2.flange_a);
    connect(frontRight.flange_b, revolute.flange_a);
    connect(steering.flange, revolute2.axis);
    connect(steering.flange, revolute.axis);
    connect(steering.flange, torque.flange);
    connect(pulse.y, torque.tau);
    connect(revolute2.flange_b, leftTrail.flange_a);
    connect(revolute.flange_b, rightTrail.flange_a);
    connect(leftTrail.flange_b, body.flange);
    connect(rightTrail.flange_b, body2.flange);
    connect(leftTrail.flange_b, wheelJoint1.frame);
    connect(rightTrail.flange_b, wheelJoint4.frame);
    connect(inertia.flange, wheelJoint1.flange);
    connect(inertia3.flange, wheelJoint4.flange);
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
  end TwoTrack;

  // --- Changing structure as a fixed superset of states -------------------

  model HardStop "A constant torque drives an inertia against a hard stop: it rebounds with half its speed until it rests there"
    Rotational.InertiaWithStops inertia(J = 2, phi_min = -1, phi_max = 1, e = 0.5, w_min = 0.05);
    Rotational.ConstantTorque drive(tau_constant = 4);
  equation
    connect(drive.flange, inertia.flange);
    annotation(experiment(StartTime = 0, StopTime = 5, Tolerance = 1e-08, Interval = 0.01));
  end HardStop;

  model TwoStageRocket "Two rocket stages locked together until a time event separates them"
    // The two-stage rocket of the Modia papers (Modia3D's TwoStageRocket3D:
    // stages of 100 kg, thrust 1e4 N falling linearly to 0 over 5 s on
    // stage 1, 2e3 N falling to 0 from 5 s to 15 s on stage 2). Both stages
    // keep their states all the time; until 5 s a ReleasableRod holds them
    // 1.5 m apart, from 5 s on (a time event) it carries no force and they
    // fly apart. docs/planar.md compares this with Modia's segments.
    Parts.Fixed fixed;
    Joints.Prismatic stage1Axis(e = {0, 1}, s_start = 1, v_start = 0) "Height of stage 1";
    Parts.Body stage1(m = 100, I = 1);
    Joints.Prismatic stage2Axis(e = {0, 1}, s_start = 2.5, v_start = 0) "Height of stage 2";
    Parts.Body stage2(m = 100, I = 1);
    Joints.ReleasableRod coupling(tRelease = 5) "Holds the stages together until separation";
    Forces.Thrust thrust1(e = {0, 1});
    Forces.Thrust thrust2(e = {0, 1});
    Sources.Ramp thrustProfile1(height = -10000, duration = 5, offset = 10000, startTime = 0);
    Sources.Step ignition2(height = 2000, startTime = 5);
    Sources.Ramp burnout2(height = -2000, duration = 10, offset = 0, startTime = 5);
    Continuous.Add thrustProfile2;
  equation
    connect(fixed.flange, stage1Axis.flange_a);
    connect(stage1Axis.flange_b, stage1.flange);
    connect(fixed.flange, stage2Axis.flange_a);
    connect(stage2Axis.flange_b, stage2.flange);
    connect(stage1Axis.flange_b, coupling.flange_a);
    connect(stage2Axis.flange_b, coupling.flange_b);
    connect(stage1Axis.flange_b, thrust1.flange);
    connect(stage2Axis.flange_b, thrust2.flange);
    connect(thrustProfile1.y, thrust1.u);
    connect(ignition2.y, thrustProfile2.u1);
    connect(burnout2.y, thrustProfile2.u2);
    connect(thrustProfile2.y, thrust2.u);
    annotation(experiment(StartTime = 0, StopTime = 16, Tolerance = 1e-06, Interval = 0.01));
  end TwoStageRocket;

end Examples;
