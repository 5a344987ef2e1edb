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
    Real e;
  algorithm
    (e, c) := f(d);
    d := e;
  end g;
end P;
