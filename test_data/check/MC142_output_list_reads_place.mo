package P
  function f
    input Real x;
    output Real a;
    output Real b;
  algorithm
    a := x;
    b := 2*x;
  end f;
  function g
    input Real x;
    output Real c;
  protected
    Real d = x;
  algorithm
    (d, c) := f(d); // <- MC142
  end g;
end P;
