package P
  model M "Each event form the methodology writes otherwise, refused at its line with that form"
    input Real u;
    parameter Real Ts = 0.1;
    Real y1, y2, y3;
  equation
    y1 = if terminal() then 1 else 0; // <- MC116
    y2 = if sample(0, Ts) then 1 else 0; // <- MC116
    when sample(0, Ts) then // <- MC116
      y3 = u;
    end when;
  end M;
end P;
