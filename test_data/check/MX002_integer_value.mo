// export: P.M
package P
  model M
    parameter Integer n; // <- MX002
    output Real y;
  equation
    y = n;
  end M;
end P;
