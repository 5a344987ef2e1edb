// No `export:` line: `check` alone must find it. The linear response is the
// class's only component, and its residual is quadratic in its balance.
package Q
  model LinearResponse
    input Real residual;
    output Real balance;
  equation
    residual = 0;
  end LinearResponse;
  model M
    Real x;
    LinearResponse cut;
  equation
    x = 1;
    cut.residual = cut.balance*cut.balance + x; // <- MC066
  end M;
end Q;
