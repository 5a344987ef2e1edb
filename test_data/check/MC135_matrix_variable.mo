package P
  type ContinuousState = Real;
  model M "An output matrix sized by a parameter"
    parameter Integer n = 2;
    parameter Real A[n, n] = [-1, 0; 0, -2];
    ContinuousState x[n](start = {1, 1});
    output Real Y[n, n]; // <- MC135
  equation
    der(x) = A*x;
  end M;
end P;
