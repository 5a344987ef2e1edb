package P
  function g
    input Real x;
    output Real y;
  algorithm
    y := 2*x;
  end g;
  function f
    input Real x;
    output Real y;
  algorithm
    y := g(x) + 1;
  end f;
end P;
