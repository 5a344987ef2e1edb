model Equations
  parameter Integer n = 3;
  Real x[n], y, z;
  input Boolean c;
initial equation
  y = 0;
equation
  der(y) = -y + z annotation(Evaluate = true);
  z = x[1] "comment";
  connect(a.b, c[2].d);
  connect(.top.p, q);
  for i in 1:n loop
    x[i] = i;
  end for;
  for i in 1:n, j in 1:2:n loop
    m[i, j] = 0;
  end for;
  if c then
    y = 1;
  elseif n > 2 then
    y = 2;
    z = 3;
  else
    y = 3;
  end if;
  if c then
    z = 2;
  end if;
  when sample(0, 1) then
    reinit(y, 0);
    when c then
      y = pre(y);
    end when;
  elsewhen initial() then
    y = 1;
  end when;
  assert(y > 0, "y must be positive", level = AssertionLevel.warning);
  Connections.root(frame.R);
  annotation(Icon);
end Equations;
