// export: P.Linear
// set: A[3,1]=0.5
package P
  type ContinuousState = Real;
  model Linear
    parameter Integer n = 2;
    parameter Real A[n, n] = [-1, 2; 0, -3]; // <- MX037
    ContinuousState x[n](start = {1, 1});
  equation
    der(x) = A*x;
  end Linear;
end P;
