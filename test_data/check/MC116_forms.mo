package P
  model M "Each discrete-event form, refused at its line with its clocked form"
    input Real u;
    input Boolean b;
    parameter Real Ts = 0.1;
    Real x(start = 1);
    Real y1, y2, y3, y4, y5, y6, y7;
  equation
    y1 = pre(u); // <- MC116
    y2 = if edge(b) then 1 else 0; // <- MC116
    y3 = if change(b) then 1 else 0; // <- MC116
    y4 = if initial() then 1 else 0; // <- MC116
    y5 = if terminal() then 1 else 0; // <- MC116
    y6 = if sample(0, Ts) then 1 else 0; // <- MC116
    when sample(0, Ts) then // <- MC116
      y7 = u;
    end when;
    der(x) = -x;
    when x < 0.5 then // <- MC116
      reinit(x, 1);
    end when;
    reinit(x, 1); // <- MC116
  end M;
end P;
