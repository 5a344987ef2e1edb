// Parameters set by bindings, by modifiers of the enclosing model (one and
// two levels down) and by `--set` (loaded after examples/Base.mo and
// examples/Thermal).
encapsulated package Modifiers
  import Thermal.Components;

  model Wall "A body cooled through its skin"
    parameter Real G = 3 "Conductance of the skin";
    parameter Real C = 60 "Heat capacity of the core";
    Components.FixedTemperature outside(T = 270);
    Components.ThermalConductor skin(G = G);
    Components.HeatCapacitor core(C = C, T0 = 290);
  equation
    connect(outside.port, skin.port_a);
    connect(skin.port_b, core.port);
  end Wall;

  model House "Two walls, one modified"
    Wall north(G = 5, core(T0 = 280));
    Wall south;
  end House;
end Modifiers;
