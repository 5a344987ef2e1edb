// export: P.M
package P
  model M
    parameter Integer n = 7000000;
    output Real x[n]; // <- MX007
  equation
    for i in 1:n loop
      x[i] = i;
    end for;
  end M;
end P;
