// export: P.M
package P
  function f
    input Real x;
    input Real k = 2;
    output Real y;
  algorithm
    y := k*x;
  end f;
  model M
    Real y;
    Real z;
  equation
    y = f(time, 3);
    z = f(time) + f(k = 1, x = time);
  end M;
end P;
