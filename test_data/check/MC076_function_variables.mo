package P
  function f
    input Real x;
    Real z; // <- MC076
    output Real y;
  algorithm
    z := x;
    y := z;
  end f;
  function g
    input Real x;
    output Real y;
    protected Real w[2]; // <- MC076
  algorithm
    y := x;
  end g;
end P;
