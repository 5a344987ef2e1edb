within Planar;
encapsulated package Joints "Joints in dialectic form: declared tearing and the dialectic time constant"
  import B = Base;
  import SI = Base.Units;
  import Planar.Interfaces;
  import Planar.Friction;
  import Planar.Rotational;

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

  model DrivenRevolute "Revolute joint whose relative rotation is that of a 1-D rotational flange"
    // The rotational flange (a shaft driven by an inertia, a torque, or both)
    // determines the relative angle; the joint answers with the torque it
    // needs to transmit, so several joints on one shaft turn together.
    Interfaces.FlangeTo flange_a "Root side";
    Interfaces.FlangeOn flange_b "Tip side";
    Rotational.FlangeTo axis "Relative rotation of flange_b against flange_a";
  equation
    flange_b.r0 = flange_a.r0;
    flange_b.v0 = flange_a.v0;
    flange_b.phi = flange_a.phi + axis.phi;
    flange_b.w = flange_a.w + axis.w;
    flange_a.f0 = -flange_b.f0;
    flange_a.t = -flange_b.t;
    // The shaft drives the tip side: the torque it must supply is the one
    // the tip side exerts on the joint.
    axis.tau = -flange_b.t;
  end DrivenRevolute;

  partial model PartialRolling "Wheel on the x axis of flange_a with its hub at height R: the wheel angle, kinematics and force transmission"
    parameter SI.Length R = 1 "Radius of the wheel";
    parameter SI.Time TD = 1e-4 "Dialectic time constant";
    parameter SI.Position x_start = 0 "Initial position of the hub along the road";
    parameter SI.Angle phi_start = 0 "Initial angle of the wheel";
    parameter SI.AngularVelocity w_start = 0 "Initial angular velocity of the wheel";
    Interfaces.FlangeTo flange_a "Ground the wheel rolls on (its x axis is the road)";
    Interfaces.FlangeOn flange_b "Hub, turning with the wheel";
    B.ContinuousState phi(start = phi_start, unit = "rad") "Angle of the wheel relative to the ground";
    B.ContinuousState w(start = w_start, unit = "rad/s") "Kinetic angular velocity of the wheel relative to the ground";
    SI.AngularAcceleration z "Angular acceleration of the wheel relative to the ground";
    SI.Position x "Position of the hub along the road";
    SI.Velocity vx "Kinetic velocity of the hub along the road";
    SI.Acceleration ax "Acceleration of the hub along the road";
    Real Ra[2, 2] "Rotation from flange_a's frame to the world frame";
    Real ea[2] "Road direction in the world frame";
    Real en[2] "Road normal in the world frame";
    SI.Position rr[2] "Hub relative to flange_a's origin, in the world frame";
  protected
    B.LinearResponse cutPhi "Chooses z so that the torque about the hub is that of the road";
  equation
    z = cutPhi.balance;
    der(phi) = w + TD*z;
    der(w) = z;
    Ra = [cos(flange_a.phi), -sin(flange_a.phi); sin(flange_a.phi), cos(flange_a.phi)];
    ea = Ra*{1, 0};
    en = {-ea[2], ea[1]};
  end PartialRolling;

  model IdealRolling "Wheel rolling without slip on the x axis of flange_a: one degree of freedom"
    // Rolling without slip ties the hub's travel to the wheel's angle,
    // x = x_start - R*(phi - phi_start) (counter-clockwise turning rolls
    // towards -x), so the joint has the wheel angle as its one coordinate.
    // It transmits no work along it: the torque about the hub equals R times
    // the force along the road.
    extends PartialRolling;
  equation
    x = x_start - R*(phi - phi_start);
    vx = -R*w;
    ax = -R*z;
    rr = x*ea + R*en;
    flange_b.r0 = flange_a.r0 + rr;
    flange_b.v0 = flange_a.v0 + vx*ea + flange_a.w*(x*en - R*ea);
    der(flange_b.v0) = der(flange_a.v0) + ax*ea + 2*vx*flange_a.w*en
      + der(flange_a.w)*(x*en - R*ea) - flange_a.w^2*rr;
    flange_b.phi = flange_a.phi + phi;
    flange_b.w = flange_a.w + w;
    flange_a.f0 = -flange_b.f0;
    flange_a.t = -flange_b.t - (rr[1]*flange_b.f0[2] - rr[2]*flange_b.f0[1]);
    cutPhi.residual = flange_b.t - R*(flange_b.f0*ea);
  end IdealRolling;

  model DryFrictionRolling "Wheel on the x axis of flange_a that slips under a regularised dry-friction law: two degrees of freedom"
    // The hub's travel s and the wheel's angle are independent coordinates.
    // The contact point slips with v_slip = vx + R*w; the road pushes on the
    // wheel with the normal force N (whatever holds the hub at height R) and
    // the friction force -N*mu(v_slip) along the road. N depends on the
    // accelerations of everything the wheel carries, but mu only on the
    // velocities, so the friction stays affine in the torn accelerations.
    extends PartialRolling;
    parameter SI.Velocity vx_start = 0 "Initial velocity of the hub along the road";
    parameter SI.Velocity vAdhesion = 0.01 "Slip velocity of the adhesion peak";
    parameter SI.Velocity vSlide = 0.03 "Slip velocity from which on the wheel slides";
    parameter Real mu_A = 0.5 "Friction coefficient at the adhesion peak";
    parameter Real mu_S = 0.15 "Friction coefficient when sliding";
    B.ContinuousState s(start = x_start, unit = "m") "Travel of the hub along the road";
    B.ContinuousState v(start = vx_start, unit = "m/s") "Kinetic velocity of the hub along the road";
    SI.Velocity v_slip "Velocity of the contact point along the road";
    SI.Force N "Normal force of the road on the wheel";
    SI.Force f "Friction force of the road on the wheel, along the road";
    Friction.TripleS friction(mu_A = mu_A, mu_S = mu_S) "Friction coefficient of the slip";
  protected
    B.LinearResponse cutX "Chooses ax so that the road's force along the road is the friction force";
  equation
    ax = cutX.balance;
    der(s) = v + TD*ax;
    der(v) = ax;
    x = s;
    vx = v;
    rr = x*ea + R*en;
    flange_b.r0 = flange_a.r0 + rr;
    flange_b.v0 = flange_a.v0 + vx*ea + flange_a.w*(x*en - R*ea);
    der(flange_b.v0) = der(flange_a.v0) + ax*ea + 2*vx*flange_a.w*en
      + der(flange_a.w)*(x*en - R*ea) - flange_a.w^2*rr;
    flange_b.phi = flange_a.phi + phi;
    flange_b.w = flange_a.w + w;
    flange_a.f0 = -flange_b.f0;
    flange_a.t = -flange_b.t - (rr[1]*flange_b.f0[2] - rr[2]*flange_b.f0[1]);
    v_slip = vx + R*w;
    friction.x = v_slip;
    friction.x_adhesion = vAdhesion;
    friction.x_slide = vSlide;
    N = -(flange_b.f0*en);
    f = -N*friction.mu;
    // The massless wheel is in equilibrium under flange_b's force and torque
    // and the road's normal and friction forces at the contact point.
    cutX.residual = flange_b.f0*ea + f;
    cutPhi.residual = flange_b.t + R*f;
  end DryFrictionRolling;

  model ReleasableRod "Massless rod that holds the distance between two flange origins until tRelease, then is gone"
    // While locked, the rod force is torn like a loop-closing joint's and
    // the distance is held on acceleration level with first-order drift
    // stabilisation of its rate; from tRelease on (a time event: a relation
    // on time) the residual is the force itself, so the rod carries nothing.
    // The number of states does not change: what separates is a force.
    parameter SI.Time tRelease = 1 "Time at which the rod is released";
    parameter SI.Time TD = 1e-3 "Time constant of the stabilisation of the distance rate";
    parameter SI.Length s_small = 1e-6 "Length below which the direction is frozen (keeps 1/length finite)";
    parameter SI.Mass m_scale = 1 "Scale of the locked residual (any positive mass gives the same motion)";
    Interfaces.FlangeTo flange_a "First end";
    Interfaces.FlangeTo flange_b "Second end";
    SI.Force f "Tension of the rod (positive pulls the ends together)";
    Real locked(unit = "1") "1 while the rod holds, 0 after tRelease";
    SI.Position dr[2] "Position of flange_b relative to flange_a";
    SI.Velocity dv[2] "Kinetic velocity of flange_b relative to flange_a";
    SI.Length length "Distance between the flanges";
    Real e[2] "Unit vector from flange_a to flange_b";
    SI.Velocity length_dot "Rate of the distance";
    SI.Acceleration length_ddot "Second derivative of the distance";
  protected
    B.LinearResponse cut "Chooses f so that the distance rate stays zero while locked, and zero force after";
  equation
    f = cut.balance;
    locked = if time < tRelease then 1 else 0;
    dr = flange_b.r0 - flange_a.r0;
    dv = flange_b.v0 - flange_a.v0;
    length = max(sqrt(dr*dr), s_small);
    e = dr/length;
    length_dot = dv*e;
    length_ddot = (der(flange_b.v0) - der(flange_a.v0))*e + (dv*dv - length_dot^2)/length;
    flange_a.f0 = -f*e;
    flange_b.f0 = f*e;
    flange_a.t = 0;
    flange_b.t = 0;
    // Both branches in newtons: the locked one scaled by the mass unit.
    cut.residual = locked*m_scale*(length_ddot + length_dot/TD) + (1 - locked)*f;
  end ReleasableRod;

end Joints;
