// export: P.M
// set: n=2.5
package P
  model M
    parameter Integer n = 3; // <- MX003
    output Real y;
  equation
    y = n;
  end M;
end P;
