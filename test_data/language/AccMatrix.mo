// Parameter-sized matrices and whole-array equations (issue 21, item 11): an
// n = 3 linear system der(x) = A*x + b*u with a non-symmetric A, outputs
// y = C*x + D*u, a dot product, and a second class whose matrix is written
// transposed and shifted by identity(n). Each class compiles to one kernel
// for every n: the products are loops over the run-time size.
encapsulated package AccMatrix
  import B = Base;

  model Linear "der(x) = A*x + b*u, y = C*x + D*u"
    parameter Integer n = 3 "Number of states";
    parameter Real A[n, n] = [-1, 2, 0; -2, -1, 1; 0.5, -1, -3] "System matrix (not symmetric)";
    parameter Real b[n] = {1, 0, 0.5} "Input vector";
    parameter Real C[n, n] = [1, 0, 0; 0, 1, 0; 1, 1, 1] "Output matrix";
    parameter Real D[n] = {0, 0, 0.1} "Feed-through";
    parameter Real u = 2 "Constant input";
    B.ContinuousState x[n](start = {1, 0, -1}) "State";
    Real y[n] "Outputs";
    Real s "Squared norm of the state";
  equation
    der(x) = A*x + b*u;
    y = C*x + D*u;
    s = x*x;
  end Linear;

  model Shifted "der(z) = (transpose(At) - k*identity(n))*z"
    parameter Integer n = 3 "Number of states";
    parameter Real At[n, n] = [-1, -2, 0.5; 2, -1, -1; 0, 1, -3] "The transpose of the system matrix";
    parameter Real k = 0.25 "Shift";
    B.ContinuousState z[n](start = {1, 1, 1}) "State";
  equation
    der(z) = (transpose(At) - k*identity(n))*z;
  end Shifted;

end AccMatrix;
