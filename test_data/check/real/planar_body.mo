// first: MC038
// The same body with a frame that declares assumed causality, but with the
// equations still written in the plain style: the body differentiates the
// position it receives, and nobody carries that derivative.
package PlanarBody
  connector Frame
    input Real x;
    flow Real fx;
    input Real y;
    flow Real fy;
    input Real phi;
    flow Real t;
  end Frame;
  model Body
    parameter Real m = 1;
    parameter Real I = 0.1;
    parameter Real g = 9.81;
    Frame frame_a;
    Real vx, vy, w;
    Real ax, ay, z;
  equation
    vx = der(frame_a.x); // <- MC038
    vy = der(frame_a.y);
    w = der(frame_a.phi);
    ax = der(vx);
    ay = der(vy);
    z = der(w);
    frame_a.fx = m*ax;
    frame_a.fy = m*ay + m*g;
    frame_a.t = I*z;
  end Body;
end PlanarBody;
