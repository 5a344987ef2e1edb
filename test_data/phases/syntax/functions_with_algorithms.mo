function F
  input Real u;
  output Real y;
protected
  Real t;
algorithm
  y := 0;
  if u > 1 then
    y := 1;
  elseif u > 0 then
    y := 2;
  elseif u > -1 then
    return;
  else
    y := 3;
  end if;
  for i in 1:3 loop
    while t < 10 loop
      t := t + i;
      if t > 5 then
        break;
      end if;
    end while;
  end for;
  (y, , t) := g(u);
  a.b[1] := 2;
  print("x");
  when u > 2 then y := 4; end when;
end F;
