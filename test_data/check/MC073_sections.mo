package P
  function f
    input Real x;
    output Real y;
  algorithm
    y := x;
  algorithm // <- MC073
    y := 2*y;
  end f;
  function g
    input Real x;
    output Real y;
  equation // <- MC073
    y = x;
  end g;
end P;
