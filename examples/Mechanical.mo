// The dialectic 2D multibody library of the strict modelling methodology's
// published Listing 1, transcribed whole and in its own order: its Base
// package (special classes and SI units), the interfaces with the grouped
// connector form (signals, then potentials, then flows), the fixed root, the
// revolute joint and the body. It is self-contained: load it alone.
//
// What differs from the printed listing, and why:
// - Printing slips that are not Modelica are corrected: `end model Root` is
//   `end Root`, `r0 abs` is `r0_abs`, FlangeToPlanar ends with its own name,
//   `import SI = package Base.Units.SI` drops the stray `package`.
// - The listing elides Base.Units ("..."); it holds the SI types used here.
// - Body refers to `world.g`, a leftover of an inner/outer world that the
//   methodology eliminates; it uses its own parameter `g`, which the listing
//   declares for that purpose.
// - The listing's Examples package is empty. A pendulum needs a lever arm,
//   so Motion gains a FixedTranslation written in the listing's style, and
//   Examples a Pendulum. Both are marked below as additions.
encapsulated package Base "Base elements"

  type ContinuousState = Real;

  model LinearResponse "continuous state"
    input Real residual;
    output Real balance;
  equation
    residual = 0;
    annotation(defaultConnectionStructurallyInconsistent = true);
  end LinearResponse;

  type RealWithDerivative = Real;
  type RealWith2Derivatives = Real;

  package Units
    package SI
      type Time = Real(unit = "s");
      type Position = Real(unit = "m");
      type Angle = Real(unit = "rad");
      type Mass = Real(unit = "kg");
      type Inertia = Real(unit = "kg.m2");
      type Acceleration = Real(unit = "m/s2");
      type AngularAcceleration = Real(unit = "rad/s2");
      type Force = Real(unit = "N");
      type Torque = Real(unit = "N.m");
    end SI;
  end Units;

end Base;


encapsulated package Mechanical

  encapsulated package Interfaces
    import B = Base;
    import SI = Base.Units.SI;

    type VelocityInt = B.RealWithDerivative(unit = "m/s");
    type AngularVelocityInt = B.RealWithDerivative(unit = "rad/s");

    connector FlangeOnPlanar
      output SI.Position r0[2];
      output SI.Angle phi;
      VelocityInt v0[2];
      AngularVelocityInt w;
      flow SI.Force f0[2];
      flow SI.Torque t;
    end FlangeOnPlanar;

    connector FlangeToPlanar
      input SI.Position r0[2];
      input SI.Angle phi;
      VelocityInt v0[2];
      AngularVelocityInt w;
      flow SI.Force f0[2];
      flow SI.Torque t;
    end FlangeToPlanar;

  end Interfaces;

  encapsulated package Planar
    import B = Base;
    import Interfaces = Mechanical.Interfaces;
    import SI = Base.Units.SI;

    package Motion
      model Root "Frame fixed"
        parameter SI.Position r0_abs[2] = {0, 0}
          "Fixed absolute x,y-position";
        parameter SI.Angle phi_abs = 0
          "Fixed angle";
        Interfaces.FlangeOnPlanar flangeOnP;

      equation
        flangeOnP.r0 = r0_abs;
        flangeOnP.phi = phi_abs;
        flangeOnP.v0 = {0, 0};
        flangeOnP.w = 0;
      end Root;

      model RevoluteJoint "Ideal Revolute Joint"
        Interfaces.FlangeToPlanar flangeToP;
        Interfaces.FlangeOnPlanar flangeOnP;
        parameter SI.Time TD
          "dialectic time constant";

      protected
        B.LinearResponse Cut;
        B.ContinuousState phi(unit = "rad")
          "position of component";
        B.ContinuousState w(unit = "rad/s")
          "(kinetic) velocity of component";
        SI.AngularAcceleration z
          "acceleration of component";
        SI.Torque t "actuation torque";

      equation
        z = Cut.balance;

        //dialectic damping term
        der(phi) = w + z*TD;
        der(w) = z;

        //rigidly connect positions
        flangeOnP.r0 = flangeToP.r0;
        flangeOnP.v0 = flangeToP.v0;
        flangeOnP.phi = flangeToP.phi + phi;
        flangeOnP.w = flangeToP.w + w;

        //balance forces
        flangeToP.f0 = -flangeOnP.f0;
        flangeToP.t = -flangeOnP.t;
        t = flangeOnP.t;
        Cut.residual = t;
      end RevoluteJoint;

      // Addition to the listing: a massless rigid link, so that a body can
      // hang at a distance from a joint.
      model FixedTranslation "Rigid link from flangeToP to flangeOnP"
        parameter SI.Position r[2]
          "Vector from flangeToP to flangeOnP, resolved in flangeToP's frame";
        Interfaces.FlangeToPlanar flangeToP;
        Interfaces.FlangeOnPlanar flangeOnP;

      protected
        Real R[2, 2] "Rotation from flangeToP's frame to the world frame";
        SI.Position rw[2] "r resolved in the world frame";
        SI.Position rn[2] "rw turned by 90 degrees";

      equation
        R = [cos(flangeToP.phi), -sin(flangeToP.phi); sin(flangeToP.phi), cos(flangeToP.phi)];
        rw = R*r;
        rn = {-rw[2], rw[1]};

        //rigidly connect positions
        flangeOnP.r0 = flangeToP.r0 + rw;
        flangeOnP.phi = flangeToP.phi;
        flangeOnP.v0 = flangeToP.v0 + flangeToP.w*rn;
        der(flangeOnP.v0) = der(flangeToP.v0) + der(flangeToP.w)*rn - flangeToP.w^2*rw;
        flangeOnP.w = flangeToP.w;

        //balance forces, with the lever arm's torque
        flangeToP.f0 = -flangeOnP.f0;
        flangeToP.t = -flangeOnP.t - (rw[1]*flangeOnP.f0[2] - rw[2]*flangeOnP.f0[1]);
      end FixedTranslation;
    end Motion;

    package Parts
      model Body
        Interfaces.FlangeToPlanar flangeToP;
        parameter SI.Mass m "Mass of the body";
        parameter SI.Inertia J "Inertia";
        parameter SI.Acceleration g[2]
          "Gravity";
        parameter Boolean enableGravity = true;

      protected
        SI.Acceleration a0[2] "Acceleration";
        SI.AngularAcceleration z
          "Angular acceleration";

      equation
        a0 = der(flangeToP.v0);
        z = der(flangeToP.w);
        flangeToP.f0 =
          if enableGravity then m*a0 - m*g
          else m*a0;
        flangeToP.t = J*z;
      end Body;
    end Parts;

  end Planar;


  encapsulated package Examples
    import Planar = Mechanical.Planar;

    // Addition to the listing: a pendulum of the listing's classes, released
    // horizontally.
    model Pendulum "Body of 2 kg on a 0.5 m link, released horizontally"
      Planar.Motion.Root root;
      Planar.Motion.RevoluteJoint revolute(TD = 1e-4);
      Planar.Motion.FixedTranslation link(r = {0.5, 0});
      Planar.Parts.Body body(m = 2, J = 0.05, g = {0, -9.81});
    equation
      connect(root.flangeOnP, revolute.flangeToP);
      connect(revolute.flangeOnP, link.flangeToP);
      connect(link.flangeOnP, body.flangeToP);
      annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-06, Interval = 0.01));
    end Pendulum;

  end Examples;

end Mechanical;
