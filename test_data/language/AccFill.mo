// fill/zeros/ones with parameter sizes, and parameter-sized bindings and
// start values that name another array (issue 21): every class compiles to
// one kernel for every n, the bindings are loops over the run-time size.
encapsulated package AccFill
  import B = Base;

  model Decay "n independent decays, their rates and starts given whole"
    parameter Integer n = 3 "Number of states";
    parameter Real G[n] = fill(2, n) "Decay rates of x";
    parameter Real k = 0.5 "Decay rate of z";
    parameter Real H[n] = fill(k, n) "Decay rates of z, computed from k";
    parameter Real x0[n] = ones(n) "Start values of x";
    parameter Real M[n, n] = zeros(n, n) "Coupling (none)";
    B.ContinuousState x[n](start = x0) "Decays from x0 at rates G";
    B.ContinuousState z[n](start = fill(3, n)) "Relaxes to 1/k at rate k";
  equation
    der(x) = -G .* x + M*x;
    der(z) = -H .* z + ones(n);
  end Decay;

end AccFill;
