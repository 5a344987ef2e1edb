// class: P.M
// An array determined piecewise: the first element alone, the rest in a
// loop; together the ranges tile 1..n, so y may read any element.
package P
  model M
    parameter Integer n = 4;
    parameter Real k = 2;
    Real x[n];
    output Real y;
  equation
    x[1] = 1;
    for i in 2:n loop
      x[i] = k*i;
    end for;
    y = x[n];
  end M;
end P;
