package P
  model M "The continuous-time forms the methodology checked before clocked partitions"
    input Real u;
    parameter Real Ts = 0.1;
    Real y1, y2, y3, y4, y5, y6, y7;
  equation
    y1 = u;
    y2 = if u > 1 then 1 else 0;
    y3 = if u > 2 then 1 else 0;
    y4 = if time < Ts then 1 else 0;
    y5 = 0;
    y6 = if time > Ts then 1 else 0;
    y7 = u;
  end M;
end P;
