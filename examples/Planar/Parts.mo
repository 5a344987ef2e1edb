within Planar;
encapsulated package Parts "Fixed frame, rigid bodies and rigid links"
  import B = Base;
  import SI = Base.Units;
  import Planar.Interfaces;

  model Fixed "Frame fixed in the world: the root of every chain"
    parameter SI.Position r[2] = {0, 0} "Position of the frame";
    parameter SI.Angle phi = 0 "Angle of the frame";
    Interfaces.FlangeOn flange "Fixed frame";
  equation
    // The velocities are constants, so the accelerations they carry are zero.
    flange.r0 = r;
    flange.v0 = {0, 0};
    flange.phi = phi;
    flange.w = 0;
  end Fixed;

  model Body "Rigid body whose centre of mass is the flange origin"
    parameter SI.Mass m = 1 "Mass";
    parameter SI.Inertia I = 0.1 "Moment of inertia about the centre of mass";
    parameter SI.Acceleration g[2] = {0, -9.81} "Gravity acceleration acting on the body";
    Interfaces.FlangeTo flange "Centre of mass";
    SI.Acceleration a[2] "Acceleration of the centre of mass";
    SI.AngularAcceleration z "Angular acceleration";
  equation
    // The motion is known, so Newton's and Euler's laws give the force and
    // torque the flange must exert on the body.
    a = der(flange.v0);
    z = der(flange.w);
    flange.f0 = m*a - m*g;
    flange.t = I*z;
  end Body;

  model FixedTranslation "Massless rigid link from flange_a to flange_b"
    parameter SI.Position r[2] = {1, 0} "Vector from flange_a to flange_b, resolved in flange_a's frame";
    Interfaces.FlangeTo flange_a "Root side";
    Interfaces.FlangeOn flange_b "Tip side";
    Real R[2, 2] "Rotation from flange_a's frame to the world frame";
    SI.Position rw[2] "r resolved in the world frame";
    SI.Position rn[2] "rw turned by 90 degrees";
  equation
    R = [cos(flange_a.phi), -sin(flange_a.phi); sin(flange_a.phi), cos(flange_a.phi)];
    rw = R*r;
    rn = {-rw[2], rw[1]};
    flange_b.r0 = flange_a.r0 + rw;
    flange_b.v0 = flange_a.v0 + flange_a.w*rn;
    // Velocity-level kinematics use the kinetic angular velocity w (not the
    // derivative of the angle), so the acceleration is written out here.
    der(flange_b.v0) = der(flange_a.v0) + der(flange_a.w)*rn - flange_a.w^2*rw;
    flange_b.phi = flange_a.phi;
    flange_b.w = flange_a.w;
    // A massless link passes the force on and adds its lever arm's torque.
    flange_a.f0 = -flange_b.f0;
    flange_a.t = -flange_b.t - (rw[1]*flange_b.f0[2] - rw[2]*flange_b.f0[1]);
  end FixedTranslation;

end Parts;
