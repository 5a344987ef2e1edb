within Planar;
encapsulated package Wheels "Vehicle wheels: a planar frame that rolls in its driving direction, spun by a rotational flange"
  import B = Base;
  import SI = Base.Units;
  import Planar.Interfaces;
  import Planar.Friction;
  import Planar.Rotational;

  // A wheel joint sits between the vehicle (frame, a planar FlangeTo: the
  // vehicle's chain moves it) and the wheel's shaft (flange, a rotational
  // FlangeTo: an inertia or a massless shaft turns it). The wheel itself is
  // massless. It drives in the direction e (resolved in the frame), its
  // lateral direction is e turned by 90 degrees, and a positive spin w rolls
  // it forward: rolling without slip means v_long = radius*w. The road's
  // force on the vehicle has a longitudinal part f_long and a lateral part
  // f_lat; the longitudinal one acts at the contact point, one radius below
  // the hub, so the shaft must supply the torque radius*f_long.

  model IdealWheel "Wheel that rolls without slipping and never slides sideways: two non-holonomic constraints"
    // The two constraints are on velocities (v_lat = 0, v_long = radius*w),
    // so no position follows from them. Each is declared tearing: the road
    // force it needs is a balance, and the residual holds the constraint on
    // acceleration level with first-order stabilisation of its velocity
    // error, which decays like exp(-t/TD).
    parameter SI.Length radius = 0.3 "Wheel radius";
    parameter Real e[2] = {1, 0} "Driving direction, resolved in the frame";
    parameter SI.Time TD = 1e-3 "Time constant of the stabilisation of the velocity constraints";
    Interfaces.FlangeTo frame "Hub, on the vehicle";
    Rotational.FlangeTo flange "Shaft spinning the wheel";
    Real R[2, 2] "Rotation from the frame to the world frame";
    Real e0[2] "Driving direction in the world frame";
    Real n0[2] "Lateral direction in the world frame";
    SI.Velocity v_long "Velocity of the hub in the driving direction";
    SI.Velocity v_lat "Velocity of the hub in the lateral direction";
    SI.Acceleration a_long "Rate of v_long";
    SI.Acceleration a_lat "Rate of v_lat";
    SI.Force f_long "Longitudinal force of the road on the vehicle";
    SI.Force f_lat "Lateral force of the road on the vehicle";
  protected
    B.LinearResponse cutLong "Chooses f_long so that the wheel rolls without slip";
    B.LinearResponse cutLat "Chooses f_lat so that the wheel does not slide sideways";
  equation
    f_long = cutLong.balance;
    f_lat = cutLat.balance;
    R = [cos(frame.phi), -sin(frame.phi); sin(frame.phi), cos(frame.phi)];
    e0 = R*e;
    n0 = {-e0[2], e0[1]};
    v_long = frame.v0*e0;
    v_lat = frame.v0*n0;
    // The directions turn with the kinetic angular velocity of the frame.
    a_long = der(frame.v0)*e0 + frame.w*v_lat;
    a_lat = der(frame.v0)*n0 - frame.w*v_long;
    frame.f0 = -(f_long*e0 + f_lat*n0);
    frame.t = 0;
    flange.tau = radius*f_long;
    cutLong.residual = a_long - radius*der(flange.w) + (v_long - radius*flange.w)/TD;
    cutLat.residual = a_lat + v_lat/TD;
  end IdealWheel;

  partial model PartialFrictionWheel "Wheel whose road force opposes the slip of its contact point: a force element"
    // The contact point slips with (v_long - radius*w, v_lat). The road's
    // force on the vehicle has the magnitude N*mu(|slip|) against the slip.
    // It depends on velocities only, so the wheel is a force element like a
    // damper and needs no tearing. The slip speed is regularised as the
    // published DryFrictionWheelJoint and SlipBasedWheelJoint do it,
    // |slip| + v_small: the direction slip/v_slip stays finite at rest, where
    // the force vanishes with the slip.
    parameter SI.Length radius = 0.3 "Wheel radius";
    parameter Real e[2] = {1, 0} "Driving direction, resolved in the frame";
    parameter SI.Velocity v_small = 1e-4 "Regularisation of the slip speed, added to |slip| as in the published wheel joints";
    Interfaces.FlangeTo frame "Hub, on the vehicle";
    Rotational.FlangeTo flange "Shaft spinning the wheel";
    Real R[2, 2] "Rotation from the frame to the world frame";
    Real e0[2] "Driving direction in the world frame";
    Real n0[2] "Lateral direction in the world frame";
    SI.Velocity v_long "Velocity of the hub in the driving direction";
    SI.Velocity v_lat "Velocity of the hub in the lateral direction";
    SI.Velocity v_slip_long "Longitudinal slip velocity of the contact point";
    SI.Velocity v_slip_lat "Lateral slip velocity of the contact point";
    SI.Velocity v_slip "Regularised slip speed";
    SI.Force fN "Normal load";
    SI.Force f "Magnitude of the friction force";
    SI.Force f_long "Longitudinal force of the road on the vehicle";
    SI.Force f_lat "Lateral force of the road on the vehicle";
  equation
    R = [cos(frame.phi), -sin(frame.phi); sin(frame.phi), cos(frame.phi)];
    e0 = R*e;
    n0 = {-e0[2], e0[1]};
    v_long = frame.v0*e0;
    v_lat = frame.v0*n0;
    v_slip_long = v_long - radius*flange.w;
    v_slip_lat = v_lat;
    // |slip| written so that its derivative stays finite at rest: sqrt has
    // an infinite slope at 0, and the tangent code that builds the tearing
    // matrix and the Jacobian would meet 0/0 there. The value is |slip|.
    v_slip = noEvent(if v_slip_long^2 + v_slip_lat^2 > 0 then sqrt(v_slip_long^2 + v_slip_lat^2)
      else 0) + v_small;
  end PartialFrictionWheel;

  model DryFrictionWheel "Wheel under a regularised dry-friction law with a constant normal load"
    extends PartialFrictionWheel;
    parameter SI.Force N = 100 "Normal load";
    parameter SI.Velocity vAdhesion = 0.1 "Slip speed of the adhesion peak";
    parameter SI.Velocity vSlide = 0.3 "Slip speed from which on the wheel slides";
    parameter Real mu_A = 0.8 "Friction coefficient at the adhesion peak";
    parameter Real mu_S = 0.4 "Friction coefficient when sliding";
    Friction.TripleS friction(mu_A = mu_A, mu_S = mu_S) "Friction coefficient of the slip speed";
  equation
    fN = N;
    friction.x = v_slip;
    friction.x_adhesion = vAdhesion;
    friction.x_slide = vSlide;
    f = fN*friction.mu;
    f_long = -f*v_slip_long/v_slip;
    f_lat = -f*v_slip_lat/v_slip;
    frame.f0 = -(f_long*e0 + f_lat*n0);
    frame.t = 0;
    flange.tau = radius*f_long;
  end DryFrictionWheel;

  model SlipBasedWheel "Wheel whose friction characteristic scales with the rolling speed, with a dynamic normal load"
    // The adhesion and sliding slip speeds grow with the rolling speed
    // (slippage sAdhesion, sSlide of radius*|w|) but not below vAdhesion_min
    // and vSlide_min; the normal load is N plus the signal dynamicLoad, and
    // never negative.
    extends PartialFrictionWheel;
    parameter SI.Force N = 100 "Base normal load";
    parameter SI.Velocity vAdhesion_min = 0.05 "Smallest slip speed of the adhesion peak";
    parameter SI.Velocity vSlide_min = 0.15 "Smallest slip speed from which on the wheel slides";
    parameter Real sAdhesion = 0.04 "Slippage of the adhesion peak";
    parameter Real sSlide = 0.12 "Slippage from which on the wheel slides";
    parameter Real mu_A = 0.8 "Friction coefficient at the adhesion peak";
    parameter Real mu_S = 0.4 "Friction coefficient when sliding";
    Interfaces.RealInput dynamicLoad "Normal load added to N, in N";
    SI.Velocity vAdhesion "Slip speed of the adhesion peak";
    SI.Velocity vSlide "Slip speed from which on the wheel slides";
    Friction.TripleS friction(mu_A = mu_A, mu_S = mu_S) "Friction coefficient of the slip speed";
  equation
    vAdhesion = noEvent(max(sAdhesion*abs(radius*flange.w), vAdhesion_min));
    vSlide = noEvent(max(sSlide*abs(radius*flange.w), vSlide_min));
    fN = noEvent(max(N + dynamicLoad, 0));
    friction.x = v_slip;
    friction.x_adhesion = vAdhesion;
    friction.x_slide = vSlide;
    f = fN*friction.mu;
    f_long = -f*v_slip_long/v_slip;
    f_lat = -f*v_slip_lat/v_slip;
    frame.f0 = -(f_long*e0 + f_lat*n0);
    frame.t = 0;
    flange.tau = radius*f_long;
  end SlipBasedWheel;

end Wheels;
