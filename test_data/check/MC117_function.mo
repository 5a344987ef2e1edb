package P
  function f // <- MC117
    input Real x;
    output Real y;
  external "C";
  end f;
end P;
