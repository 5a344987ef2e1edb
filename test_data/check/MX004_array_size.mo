// export: P.M
package P
  block Vector
    parameter Integer n = 2;
    output Real y[n];
  equation
    for i in 1:n loop
      y[i] = i;
    end for;
  end Vector;
  model M
    Vector v(n = 0); // <- MX004
  end M;
end P;
