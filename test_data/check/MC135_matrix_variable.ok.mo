package P
  type ContinuousState = Real;
  model M "A parameter matrix and a state vector"
    parameter Integer n = 2;
    parameter Real A[n, n] = [-1, 0.5; 0, -2];
    ContinuousState x[n](start = {1, 1});
  equation
    der(x) = A*x;
  end M;
end P;
