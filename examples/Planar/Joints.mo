within Planar;
encapsulated package Joints "Joints in dialectic form: declared tearing and the dialectic time constant"
  import B = Base;
  import SI = Base.Units;
  import Planar.Interfaces;

  // Every joint of a chain takes the motion of flange_a as known and
  // determines the motion of flange_b from its own states. Its acceleration
  // is the balance of a LinearResponse: the system chooses it so that the
  // joint transmits, along its free direction, exactly the force or torque
  // of its drive, spring and damper (zero for a free joint). The position
  // state follows the dialectic law der(q) = v + TD*a, which makes the
  // position lead the integral of the kinetic velocity by TD times its
  // change; docs/planar.md quantifies the effect.

  partial model PartialRevolute "Revolute joint without its torque law"
    parameter SI.Time TD = 1e-4 "Dialectic time constant";
    parameter SI.Angle phi_start = 0 "Initial relative angle";
    parameter SI.AngularVelocity w_start = 0 "Initial relative angular velocity";
    parameter SI.RotationalDampingConstant d = 0 "Viscous damping in the joint";
    Interfaces.FlangeTo flange_a "Root side";
    Interfaces.FlangeOn flange_b "Tip side";
    B.ContinuousState phi(start = phi_start, unit = "rad") "Relative angle";
    B.ContinuousState w(start = w_start, unit = "rad/s") "Relative (kinetic) angular velocity";
    SI.AngularAcceleration z "Relative angular acceleration";
  protected
    B.LinearResponse cut "Chooses z so that the joint transmits its drive torque";
  equation
    z = cut.balance;
    // Dialectic damping: the angle leads the integrated velocity by TD*z.
    der(phi) = w + TD*z;
    der(w) = z;
    flange_b.r0 = flange_a.r0;
    flange_b.v0 = flange_a.v0;
    flange_b.phi = flange_a.phi + phi;
    flange_b.w = flange_a.w + w;
    flange_a.f0 = -flange_b.f0;
    flange_a.t = -flange_b.t;
  end PartialRevolute;

  model Revolute "Free revolute joint (with optional viscous damping)"
    extends PartialRevolute;
  equation
    cut.residual = flange_b.t - d*w;
  end Revolute;

  model ActuatedRevolute "Revolute joint driven by a torque signal"
    extends PartialRevolute;
    Interfaces.RealInput tau "Drive torque acting on flange_b's side, in N.m";
  equation
    cut.residual = flange_b.t + tau - d*w;
  end ActuatedRevolute;

  partial model PartialPrismatic "Prismatic joint without its force law"
    parameter Real e[2] = {1, 0} "Unit vector of the axis, resolved in flange_a's frame";
    parameter SI.Time TD = 1e-4 "Dialectic time constant";
    parameter SI.Position s_start = 0 "Initial elongation";
    parameter SI.Velocity v_start = 0 "Initial elongation velocity";
    parameter SI.TranslationalSpringConstant c = 0 "Stiffness of a spring along the axis";
    parameter SI.Position s_rel0 = 0 "Elongation at which the spring is relaxed";
    parameter SI.TranslationalDampingConstant d = 0 "Viscous damping along the axis";
    Interfaces.FlangeTo flange_a "Root side";
    Interfaces.FlangeOn flange_b "Tip side";
    B.ContinuousState s(start = s_start, unit = "m") "Elongation along the axis";
    B.ContinuousState v(start = v_start, unit = "m/s") "Elongation (kinetic) velocity";
    SI.Acceleration a "Elongation acceleration";
    Real R[2, 2] "Rotation from flange_a's frame to the world frame";
    Real ea[2] "Axis resolved in the world frame";
    Real en[2] "Normal of the axis, resolved in the world frame";
    SI.Force f "Force of the built-in spring and damper along the axis";
  protected
    B.LinearResponse cut "Chooses a so that the joint transmits its drive force";
  equation
    a = cut.balance;
    der(s) = v + TD*a;
    der(v) = a;
    R = [cos(flange_a.phi), -sin(flange_a.phi); sin(flange_a.phi), cos(flange_a.phi)];
    ea = R*e;
    en = {-ea[2], ea[1]};
    flange_b.r0 = flange_a.r0 + s*ea;
    flange_b.v0 = flange_a.v0 + v*ea + s*flange_a.w*en;
    der(flange_b.v0) = der(flange_a.v0) + a*ea + (2*v*flange_a.w + s*der(flange_a.w))*en
      - s*flange_a.w^2*ea;
    flange_b.phi = flange_a.phi;
    flange_b.w = flange_a.w;
    flange_a.f0 = -flange_b.f0;
    flange_a.t = -flange_b.t - s*(ea[1]*flange_b.f0[2] - ea[2]*flange_b.f0[1]);
    f = -c*(s - s_rel0) - d*v;
  end PartialPrismatic;

  model Prismatic "Free prismatic joint (with optional spring and damper along the axis)"
    extends PartialPrismatic;
  equation
    cut.residual = flange_b.f0*ea + f;
  end Prismatic;

  model ActuatedPrismatic "Prismatic joint driven by a force signal"
    extends PartialPrismatic;
    Interfaces.RealInput u "Drive force along the axis acting on flange_b's side, in N";
  equation
    cut.residual = flange_b.f0*ea + f + u;
  end ActuatedPrismatic;

  model FreeMotion "Three free degrees of freedom: the chain root of a free body"
    parameter SI.Time TD = 1e-4 "Dialectic time constant";
    parameter SI.Position r_start[2] = {0, 0} "Initial position of flange_b relative to flange_a";
    parameter SI.Velocity v_start[2] = {0, 0} "Initial relative velocity";
    parameter SI.Angle phi_start = 0 "Initial relative angle";
    parameter SI.AngularVelocity w_start = 0 "Initial relative angular velocity";
    Interfaces.FlangeTo flange_a "Root side";
    Interfaces.FlangeOn flange_b "Tip side";
    B.ContinuousState r[2](start = r_start, each unit = "m") "Relative position, resolved in the world frame";
    B.ContinuousState v[2](start = v_start, each unit = "m/s") "Relative (kinetic) velocity";
    B.ContinuousState phi(start = phi_start, unit = "rad") "Relative angle";
    B.ContinuousState w(start = w_start, unit = "rad/s") "Relative (kinetic) angular velocity";
    SI.Acceleration a[2] "Relative acceleration";
    SI.AngularAcceleration z "Relative angular acceleration";
  protected
    B.LinearResponse cutX "Chooses a[1] so that no force acts along x";
    B.LinearResponse cutY "Chooses a[2] so that no force acts along y";
    B.LinearResponse cutPhi "Chooses z so that no torque acts";
  equation
    a = {cutX.balance, cutY.balance};
    z = cutPhi.balance;
    der(r) = v + TD*a;
    der(v) = a;
    der(phi) = w + TD*z;
    der(w) = z;
    flange_b.r0 = flange_a.r0 + r;
    flange_b.v0 = flange_a.v0 + v;
    flange_b.phi = flange_a.phi + phi;
    flange_b.w = flange_a.w + w;
    flange_a.f0 = -flange_b.f0;
    flange_a.t = -flange_b.t - (r[1]*flange_b.f0[2] - r[2]*flange_b.f0[1]);
    cutX.residual = flange_b.f0[1];
    cutY.residual = flange_b.f0[2];
    cutPhi.residual = flange_b.t;
  end FreeMotion;

  model LoopRevolute "Revolute joint that closes a kinematic loop: both flanges are inputs"
    parameter SI.Time TD = 1e-3 "Time constant of the closure's drift stabilisation";
    Interfaces.FlangeTo flange_a "End of one branch of the loop";
    Interfaces.FlangeTo flange_b "End of the other branch of the loop";
    SI.Force f[2] "Constraint force on this joint through flange_a (minus that through flange_b)";
    SI.Position gap[2] "Position of flange_b minus position of flange_a (zero when closed)";
    SI.Velocity gap_v[2] "Difference of the kinetic velocities";
    SI.Acceleration gap_a[2] "Difference of the accelerations";
    SI.Length closureError "Distance between the two flange origins";
    SI.Angle phi "Angle of flange_b relative to flange_a";
  protected
    B.LinearResponse cutX "Chooses f[1] so that the x closure holds";
    B.LinearResponse cutY "Chooses f[2] so that the y closure holds";
  equation
    // The constraint force is the torn variable; it passes through the joint
    // unchanged and carries no torque, as a revolute joint should.
    f = {cutX.balance, cutY.balance};
    flange_a.f0 = f;
    flange_b.f0 = -f;
    flange_a.t = 0;
    flange_b.t = 0;
    gap = flange_b.r0 - flange_a.r0;
    gap_v = flange_b.v0 - flange_a.v0;
    gap_a = der(flange_b.v0) - der(flange_a.v0);
    closureError = sqrt(gap*gap);
    phi = flange_b.phi - flange_a.phi;
    // The closure is imposed on acceleration level with critically damped
    // drift stabilisation: a gap decays like (1 + t/TD)*exp(-t/TD).
    cutX.residual = gap_a[1] + 2*gap_v[1]/TD + gap[1]/TD^2;
    cutY.residual = gap_a[2] + 2*gap_v[2]/TD + gap[2]/TD^2;
  end LoopRevolute;

end Joints;
