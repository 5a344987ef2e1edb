// `end` in subscripts (issue 21): the size of the dimension it indexes, as
// declared, for literal and parameter sizes, in equations, bindings, `for`
// loop bodies and connects. The last cell of a row is `x[end]` whatever n.
encapsulated package AccEnd
  import B = Base;
  import Thermal.Components;

  model Cascade "n tanks in a row, each fed by the one before, the first by a level of 1"
    parameter Integer n = 4 "Number of tanks";
    parameter Real a = 2 "Exchange rate";
    B.ContinuousState x[n](each start = 0) "Levels";
    Real last = x[end] "Level of the last tank";
    Real gap[n - 1] "How far each tank is above the last";
    Real ends[2] "The first level and the last gap";
  equation
    der(x[1]) = a*(1 - x[1]);
    for i in 2:n - 1 loop
      der(x[i]) = a*(x[i - 1] - x[i]);
    end for;
    der(x[end]) = a*(x[end - 1] - x[end]);
    for i in 1:n - 1 loop
      gap[i] = x[i] - x[end];
    end for;
    ends[1] = x[1];
    ends[end] = x[end - 1] - x[end];
  end Cascade;

  model Row "n capacitors joined by conductors, heated at the last one"
    parameter Integer n = 2 "Number of capacitors";
    Components.FixedHeatFlow heater(Q_flow = 10);
    Components.HeatCapacitor cap[n](each C = 5, each T0 = 300);
    Components.ThermalConductor link[n - 1](each G = 2);
  equation
    connect(heater.port, cap[end].port);
    for i in 1:n - 1 loop
      connect(cap[i].port, link[i].port_a);
      connect(link[i].port_b, cap[i + 1].port);
    end for;
  end Row;

end AccEnd;
