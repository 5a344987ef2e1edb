package P
  function f
    input Real x;
    output Real a;
    output Real b;
  algorithm
    a := x;
    b := 2*x;
  end f;
  block B
    input Real u;
    output Real y;
    output Real z;
    output Real w;
  equation
    (y, z, w) = f(u); // <- MC140
  end B;
end P;
