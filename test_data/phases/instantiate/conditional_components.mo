// A conditional component, present or absent by a Boolean parameter that
// `--set` can change (loaded after examples/Base.mo and examples/Thermal).
encapsulated package Optional
  import Thermal.Components;

  model MaybeHeated "A body with an optional heater"
    parameter Boolean withHeater = true "Include the heater";
    Components.HeatCapacitor body(C = 200, T0 = 293.15);
    Components.ThermalConductor conductor(G = 4);
    Components.FixedTemperature ambient(T = 293.15);
    Components.FixedHeatFlow heater(Q_flow = 50) if withHeater;
  equation
    connect(body.port, heater.port);
    connect(body.port, conductor.port_a);
    connect(conductor.port_b, ambient.port);
  end MaybeHeated;
end Optional;
