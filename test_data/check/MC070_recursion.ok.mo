// export: P.M
package P
  function factorial
    input Real n;
    output Real y;
  algorithm
    y := 1;
    for k in 2:n loop
      y := y*k;
    end for;
  end factorial;
  model M
    Real y;
  equation
    y = factorial(5)*time;
  end M;
end P;
