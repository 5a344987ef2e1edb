model Algorithms
  Real x, y;
initial algorithm
  x := 0;
algorithm
  x := 1 "comment";
  (x, y) := f(1, 2);
  if x > 1 then
    y := 2;
    for i in 1:3 loop
      while y < 10 loop
        y := y + 1;
        if y > 5 then
          break;
        end if;
      end while;
    end for;
  elseif x < 0 then
    return;
  else
    y := 0;
  end if;
  when x > 2 then
    y := 3;
  elsewhen x > 3 then
    reinit(x, 1);
  end when;
  assert(x > 0, "positive") annotation(x = 1);
equation
  y = x;
end Algorithms;
