package P
  function f
    input Real x;
    output Real y;
  algorithm
    y := x;
    y := 2*y;
  end f;
end P;
