// export: P.M
// set: k=true
package P
  model M
    parameter Real k = 1; // <- MX022
    output Real y;
  equation
    y = k;
  end M;
end P;
