package P
  function f
    input Real x;
    output Real y;
  protected
    Real z;
  algorithm
    z := 2*x;
    y := z;
  end f;
end P;
