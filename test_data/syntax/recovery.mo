// Three independent errors in one file, each reported once.
package P
  model A
    Real x(start = ) "missing value";
    Real y;
  equation
    for i in 1:3 loop
      y = x[i] +;
    end for;
    y = 2;
  end A;
  model B
    parameter Real k = 1;
  equation
    if k > then
      x = 1;
    else
      x = 2;
    end if;
    x = k;
  end B;
  model C
    Real z;
  equation
    z = 1;
  end C;
end P;
