package P
  function f
    input Real x;
    output Real y;
  algorithm
    y := x;
    when x > 1 then // <- MC077
      y := 1;
    end when;
  end f;
end P;
