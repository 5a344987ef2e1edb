encapsulated package Base "Base elements"
  type ContinuousState = Real;
  model LinearResponse "declared tearing"
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
      type Position = Real(unit = "m");
      type Angle = Real(unit = "rad", displayUnit = "deg");
      type Time = Real(unit = "s");
      type Force = Real(unit = "N");
      type Torque = Real(unit = "N.m");
      type AngularAcceleration = Real(unit = "rad/s2");
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
    import SI = Base.Units.SI;
    import Interfaces = Mechanical.Interfaces;
    model Root "Frame fixed"
      parameter SI.Position r0_abs[2] = {0, 0} "Fixed absolute x,y-position";
      parameter SI.Angle phi_abs = 0 "Fixed angle";
      Interfaces.FlangeOnPlanar flangeOnP;
    equation
      flangeOnP.r0 = r0_abs;
      flangeOnP.phi = phi_abs;
      flangeOnP.v0 = {0, 0};
      flangeOnP.w = 0;
    end Root;
    model RevoluteJoint "Ideal revolute joint"
      Interfaces.FlangeToPlanar flangeToP;
      Interfaces.FlangeOnPlanar flangeOnP;
      parameter SI.Time TD "dialectic time constant";
    protected
      B.LinearResponse Cut;
      B.ContinuousState phi(unit = "rad") "position of component";
      B.ContinuousState w(unit = "rad/s") "(kinetic) velocity of component";
      SI.AngularAcceleration z "acceleration of component";
      SI.Torque t "actuation torque";
    equation
      z = Cut.balance;
      // dialectic damping term
      der(phi) = w + z*TD;
      der(w) = z;
      flangeOnP.r0 = flangeToP.r0;
      flangeOnP.phi = flangeToP.phi + phi;
      flangeToP.f0 = -flangeOnP.f0;
      t = flangeOnP.t;
      Cut.residual = t;
    end RevoluteJoint;
    model Chain
      parameter Integer n = 4;
      parameter Boolean enableGravity = true;
      parameter Real m = 1, g[2] = {0, -9.81};
      Real a0[2], f[2], x[n];
    equation
      for i in 1:n loop
        x[i] = i*m;
      end for;
      f = if enableGravity then m*a0 - m*g else m*a0;
    end Chain;
  end Planar;
end Mechanical;
