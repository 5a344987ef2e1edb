model Counter
  Base.ContinuousState x(start = 0);
  Real n;
equation
  der(x) = 1;
  when x > 1 then
    n = pre(n) + 1;
  end when;
end Counter;
