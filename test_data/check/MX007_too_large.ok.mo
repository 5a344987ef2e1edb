// export: P.M
package P
  model M
    parameter Integer n = 3;
    output Real x[n];
  equation
    for i in 1:n loop
      x[i] = i;
    end for;
  end M;
end P;
