// first: MC029
// A revolute joint written as an acausal balance of frames: with the
// frame causalities assumed (frame_a known, frame_b to be determined), the
// angle equation has two unknowns, the joint angle and frame_b.phi; no
// other equation names the joint angle, so nothing determines it.
package PlanarJoint
  connector FrameIn
    input Real x;
    flow Real fx;
    input Real y;
    flow Real fy;
    input Real phi;
    flow Real t;
  end FrameIn;
  connector FrameOut
    output Real x;
    flow Real fx;
    output Real y;
    flow Real fy;
    output Real phi;
    flow Real t;
  end FrameOut;
  model Revolute
    FrameIn frame_a;
    FrameOut frame_b;
    Real phi; // <- MC029
  equation
    frame_a.x = frame_b.x;
    frame_a.y = frame_b.y;
    frame_a.phi + phi = frame_b.phi;
    frame_a.fx + frame_b.fx = 0;
    frame_a.fy + frame_b.fy = 0;
    frame_a.t + frame_b.t = 0;
    frame_a.t = 0;
  end Revolute;
end PlanarJoint;
