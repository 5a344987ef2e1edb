within Planar;
encapsulated package Interfaces "Flanges with assumed causality and signal connectors"
  import B = Base;
  import SI = Base.Units;

  // Velocities carry their time derivatives (the accelerations) through
  // connections, so a body can use der(v0) without differentiating anything.
  type VelocityInt = B.RealWithDerivative(unit = "m/s");
  type AngularVelocityInt = B.RealWithDerivative(unit = "rad/s");

  // A flange is a point with an orientation in the plane. Positions and
  // vectors are resolved in the world frame. Its variables come in two
  // triples, each a signal, a potential that inherits the signal's causality
  // and a flow of the inverse causality: (r0, v0, f0) for translation and
  // (phi, w, t) for rotation. As everywhere in Modelica, f0 and t are the
  // force and torque acting on the component that owns the flange.

  connector FlangeOn "Flange whose owner determines the motion (towards the tip of a chain)"
    output SI.Position r0[2] "Position of the flange origin";
    VelocityInt v0[2] "Velocity of the flange origin; carries the acceleration";
    flow SI.Force f0[2] "Force on the owner through this flange; known to the owner";
    output SI.Angle phi "Absolute angle of the flange";
    AngularVelocityInt w "Angular velocity; carries the angular acceleration";
    flow SI.Torque t "Torque on the owner through this flange; known to the owner";
  end FlangeOn;

  connector FlangeTo "Flange whose owner receives the motion (towards the root of a chain)"
    input SI.Position r0[2] "Position of the flange origin";
    VelocityInt v0[2] "Velocity of the flange origin; carries the acceleration";
    flow SI.Force f0[2] "Force on the owner through this flange; determined by the owner";
    input SI.Angle phi "Absolute angle of the flange";
    AngularVelocityInt w "Angular velocity; carries the angular acceleration";
    flow SI.Torque t "Torque on the owner through this flange; determined by the owner";
  end FlangeTo;

  // Signal connectors of the same shape as Signals.Interfaces, so signal
  // blocks of that library connect to driven joints and sensors.
  connector RealInput = input Real;
  connector RealOutput = output Real;

end Interfaces;
