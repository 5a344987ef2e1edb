// export: P.M
// set: n=2
package P
  model M
    parameter Integer n = 3;
    output Real y;
  equation
    y = n;
  end M;
end P;
