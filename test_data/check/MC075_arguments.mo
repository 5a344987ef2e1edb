package P
  function f
    input Real x;
    input Real k;
    output Real y;
  algorithm
    y := k*x;
  end f;
  model M
    Real y;
    Real z;
  equation
    y = f(time, 2, 3); // <- MC075
    z = f(time); // <- MC075
  end M;
end P;
