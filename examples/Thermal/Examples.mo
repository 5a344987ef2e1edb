within Thermal;
package Examples "Small thermal systems"

  model TwoCapacitors "Two bodies settle to a common temperature through a conductor"
    Components.HeatCapacitor hot(C = 20, T0 = 400);
    Components.ThermalConductor conductor(G = 0.5);
    Components.HeatCapacitor cold(C = 40, T0 = 300);
  equation
    connect(hot.port, conductor.port_a);
    connect(conductor.port_b, cold.port);
    annotation(experiment(StartTime = 0, StopTime = 100, Tolerance = 1e-06, Interval = 0.5));
  end TwoCapacitors;

  model CapacitorCooling "A hot body cools towards a fixed ambient temperature"
    Components.FixedTemperature ambient(T = 293.15);
    Components.ThermalConductor conductor(G = 2);
    Components.HeatCapacitor body(C = 100, T0 = 373.15);
  equation
    connect(ambient.port, conductor.port_a);
    connect(conductor.port_b, body.port);
    annotation(experiment(StartTime = 0, StopTime = 100, Tolerance = 1e-06, Interval = 0.5));
  end CapacitorCooling;

  model HeatedCapacitor "A heated body that loses heat to a fixed ambient temperature"
    Components.FixedHeatFlow heater(Q_flow = 50);
    Components.HeatCapacitor body(C = 200, T0 = 293.15);
    Components.ThermalConductor conductor(G = 4);
    Components.FixedTemperature ambient(T = 293.15);
  equation
    // The body's port fans out to the heater and the conductor; the heat
    // flowing into the body is the sum of what both give it.
    connect(body.port, heater.port);
    connect(body.port, conductor.port_a);
    connect(conductor.port_b, ambient.port);
    annotation(experiment(StartTime = 0, StopTime = 100, Tolerance = 1e-06, Interval = 0.5));
  end HeatedCapacitor;

  model RodHeating "A rod heated at one end through a conductor, insulated at the other"
    Components.FixedTemperature source(T = 400);
    Components.ThermalConductor conductor(G = 1);
    Components.Rod rod(n = 5, T0 = 300);
    Components.FixedHeatFlow insulation(Q_flow = 0) "Closes the far end of the rod";
  equation
    connect(source.port, conductor.port_a);
    connect(conductor.port_b, rod.port_a);
    connect(rod.port_b, insulation.port);
    annotation(experiment(StartTime = 0, StopTime = 100, Tolerance = 1e-06, Interval = 0.5));
  end RodHeating;

end Examples;
