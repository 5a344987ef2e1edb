package P
  function f // <- MC117
    input Real x;
    output Real y;
  algorithm // <- MC110
    y := 2*x;
  end f;
end P;
