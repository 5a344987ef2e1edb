// export: P.M
// set: k=2
package P
  model M
    parameter Real k = 1;
    output Real y;
  equation
    y = k;
  end M;
end P;
