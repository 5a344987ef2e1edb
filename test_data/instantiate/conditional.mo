// A conditional component present or absent by a Boolean parameter, and an
// enumeration parameter, both settable (loaded after examples/Base.mo and
// examples/Thermal).
encapsulated package Conditional
  import Thermal.Components;

  type Mode = enumeration(Off, Heat);

  model MaybeHeated "A body with an optional heater"
    parameter Boolean withHeater = true "Include the heater";
    parameter Mode mode = Mode.Heat "Heating mode";
    Components.HeatCapacitor body(C = 200, T0 = 293.15);
    Components.ThermalConductor conductor(G = 4);
    Components.FixedTemperature ambient(T = 293.15);
    Components.FixedHeatFlow heater(Q_flow = if mode == Mode.Heat then 50 else 0) if withHeater;
  equation
    connect(body.port, heater.port);
    connect(body.port, conductor.port_a);
    connect(conductor.port_b, ambient.port);
  end MaybeHeated;
end Conditional;
