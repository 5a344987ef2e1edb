// An array of components sized by an Integer parameter, with a modifier for
// every element (`each`) and one with a part per element, connected in `for`
// loops (loaded after examples/Base.mo and examples/Thermal).
encapsulated package Arrays
  import Thermal.Components;

  model Chain "n capacitors in a row, heated from one end"
    parameter Integer n = 3 "Number of capacitors";
    Components.FixedTemperature source(T = 400);
    Components.ThermalConductor link[n](each G = 2);
    Components.HeatCapacitor cap[n](each C = 50, T0 = {300, 310, 320});
  equation
    connect(source.port, link[1].port_a);
    for i in 1:n loop
      connect(link[i].port_b, cap[i].port);
    end for;
    for i in 1:n - 1 loop
      connect(cap[i].port, link[i + 1].port_a);
    end for;
  end Chain;
end Arrays;
