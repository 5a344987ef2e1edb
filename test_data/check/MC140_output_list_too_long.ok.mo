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
    (y, z) = f(u);
    w = y + z;
  end B;
end P;
