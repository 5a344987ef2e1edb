// first: MC014
// A planar mechanics library in the plain (acausal) Modelica style: the
// connector declares positions and forces without any causality, and the
// components are written as balanced sets of equations.
package PlanarPlain
  package SI
    type Position = Real(unit = "m");
    type Angle = Real(unit = "rad");
    type Force = Real(unit = "N");
    type Torque = Real(unit = "N.m");
    type Mass = Real(unit = "kg");
    type Inertia = Real(unit = "kg.m2");
  end SI;
  connector Frame "planar frame: position, orientation, cut forces"
    SI.Position x "x position"; // <- MC014
    SI.Position y "y position";
    SI.Angle phi "orientation, counter-clockwise";
    flow SI.Force fx "cut force along x";
    flow SI.Force fy "cut force along y";
    flow SI.Torque t "cut torque";
  end Frame;
  model Body "a rigid body with its centre of mass at the frame"
    parameter SI.Mass m = 1;
    parameter SI.Inertia I = 0.1;
    parameter Real g = 9.81;
    Frame frame_a;
    Real vx, vy, w;
    Real ax, ay, z;
  equation
    vx = der(frame_a.x);
    vy = der(frame_a.y);
    w = der(frame_a.phi);
    ax = der(vx);
    ay = der(vy);
    z = der(w);
    frame_a.fx = m*ax;
    frame_a.fy = m*ay + m*g;
    frame_a.t = I*z;
  end Body;
  model Revolute "a joint that lets two frames turn against each other"
    Frame frame_a;
    Frame frame_b;
    SI.Angle phi;
  equation
    frame_a.x = frame_b.x;
    frame_a.y = frame_b.y;
    frame_a.phi + phi = frame_b.phi;
    frame_a.fx + frame_b.fx = 0;
    frame_a.fy + frame_b.fy = 0;
    frame_a.t + frame_b.t = 0;
    frame_a.t = 0;
  end Revolute;
end PlanarPlain;
