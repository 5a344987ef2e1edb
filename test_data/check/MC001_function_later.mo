package P
  function f
    input Real x;
    output Real y;
  algorithm
    y := g(x) + 1; // <- MC001
  end f;
  function g
    input Real x;
    output Real y;
  algorithm
    y := 2*x;
  end g;
end P;
