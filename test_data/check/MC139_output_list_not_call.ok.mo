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
  equation
    (y, z) = f(u);
  end B;
end P;
