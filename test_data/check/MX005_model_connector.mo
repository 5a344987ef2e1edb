// export: P.Body
package P
  type RealWithDerivative = Real;
  connector FlangeTo
    input Real x;
    RealWithDerivative v;
    flow Real f;
  end FlangeTo;
  // Checks clean as a component; exported alone, nothing determines the
  // motion its flange receives.
  model Body
    parameter Real m = 1;
    FlangeTo flange; // <- MX005
  equation
    flange.f = m*der(flange.v);
  end Body;
end P;
