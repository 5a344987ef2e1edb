model M
  parameter Integer k = 1;
  Real x, y;
equation
  if k == 1 then
    x = 1;
  elseif k == 2 then
    x = 2;
    if k > 0 then y = 1; else y = 2; end if;
  else
    x = 3;
  end if;
  if k > 0 then y = x; end if;
  (x, , y) = f(k);
  assert(x > 0, "positive");
  when x > 1 then reinit(x, 0); end when;
end M;
