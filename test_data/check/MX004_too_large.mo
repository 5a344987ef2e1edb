// export: P.M
// set: n=1e12
package P
  model M
    parameter Integer n = 2;
    output Real y[n]; // <- MX004
  equation
    for i in 1:n loop
      y[i] = i;
    end for;
  end M;
end P;
