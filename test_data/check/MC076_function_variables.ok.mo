package P
  function f
    input Real x;
    output Real y;
  protected
    Real z;
  algorithm
    z := x;
    y := z;
  end f;
end P;
