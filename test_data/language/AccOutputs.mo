// Functions with several outputs: `(a, b) := f(x)` in an algorithm and
// `(a, b) = f(x)` in equations. A damped rotation x' = -d x - w y,
// y' = w x - d y, whose field is computed by a two-output function that
// itself takes the two outputs of another (an empty place skips one).
encapsulated package AccOutputs
  import B = Base;

  function rotate "A vector turned by a quarter and scaled by w, and its length"
    input Real x;
    input Real y;
    input Real w;
    output Real rx;
    output Real ry;
    output Real length;
  algorithm
    rx := -w*y;
    ry := w*x;
    length := sqrt(x^2 + y^2);
  end rotate;

  function field "The damped rotation's field"
    input Real x;
    input Real y;
    input Real w;
    input Real d;
    output Real dx;
    output Real dy;
  protected
    Real rx;
    Real ry;
  algorithm
    (rx, ry) := rotate(x, y, w);
    dx := rx - d*x;
    dy := ry - d*y;
  end field;

  model Spiral "x + i y = exp((i w - d) t)"
    parameter Real w = 2 "Angular velocity";
    parameter Real d = 0.3 "Damping";
    B.ContinuousState x(start = 1) "Real part";
    B.ContinuousState y(start = 0) "Imaginary part";
    Real vx "der(x)";
    Real vy "der(y)";
    Real r "Radius";
  equation
    (vx, vy) = field(x, y, w, d);
    (, , r) = rotate(x, y, w);
    der(x) = vx;
    der(y) = vy;
  end Spiral;

end AccOutputs;
