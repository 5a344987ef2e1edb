// export: Q.M
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
    cut.residual = 2*cut.balance + x;
  end M;
end Q;
