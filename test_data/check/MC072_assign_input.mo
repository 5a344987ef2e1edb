package P
  function f
    input Real x;
    output Real y;
  algorithm
    x := 2*x; // <- MC072
    y := x;
  end f;
end P;
