// export: P.M
// set: n=1000
package P
  model M
    parameter Integer n = 2;
    output Real y[n];
  equation
    for i in 1:n loop
      y[i] = i;
    end for;
  end M;
end P;
