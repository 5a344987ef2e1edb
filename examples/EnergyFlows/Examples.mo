within EnergyFlows;
package Examples "Energy budgets of small electrified systems"

  // In every example, the energy from the sources equals the energy delivered
  // to the loads plus the losses plus the change of the stored energy, at
  // every instant (tests/it/energy_flows.rs checks it from the meters).

  model BatteryDrive "A battery drives a 1 kW load through a converter until it is empty"
    Components.Storage battery(capacity = 3.6e6, E0 = 3.6e6, P_charge_max = 0, P_discharge_max = 2000);
    Components.Source noCharging(P_max = 0) "Nothing charges the battery during the drive";
    Components.Converter converter(eta = 0.9);
    S.Sources.Constant demand(k = 1000) "1 kW from t = 0";
    Components.Load load;
    T.Components.FixedTemperature ambient(T = 293.15) "Takes the converter's loss";
  equation
    connect(noCharging.outlet, battery.charge);
    connect(battery.discharge, converter.inlet);
    connect(converter.outlet, load.inlet);
    connect(demand.y, load.P_demand);
    connect(converter.heatPort, ambient.port);
    annotation(experiment(StartTime = 0, StopTime = 4000, Tolerance = 1e-08, Interval = 10));
  end BatteryDrive;

  model SolarHouse "A house on photovoltaics, a battery charged from the surplus, and the grid"
    S.Sources.Sine sun(amplitude = 3000, freqHz = 1/86400) "3 kW peak, one day per period; negative at night";
    Components.SignalSource pv "max(0, 3000 sin(2 pi t/86400)) W";
    Components.SurplusCharger charger(eta = 0.95);
    Components.Storage battery(capacity = 3.6e7, E0 = 7.2e6, P_charge_max = 2000,
      P_discharge_max = 400, eta_charge = 0.98, eta_discharge = 0.98) "10 kWh, starting at 20 %";
    Components.Supplement fromBattery "What the PV cannot cover comes from the battery";
    Components.Source grid(P_max = 10000) "Supplies the rest";
    Components.Supplement fromGrid "What PV and battery cannot cover comes from the grid";
    S.Sources.Constant demand(k = 500);
    Components.Load house;
    T.Components.HeatCapacitor room(C = 2e6, T0 = 293.15) "Heated by the charger's loss";
    T.Components.ThermalConductor wall(G = 50);
    T.Components.FixedTemperature outside(T = 283.15);
  equation
    connect(sun.y, pv.P_max);
    connect(pv.outlet, charger.inlet);
    connect(charger.charge, battery.charge);
    connect(charger.outlet, fromBattery.primary);
    connect(battery.discharge, fromBattery.secondary);
    connect(fromBattery.outlet, fromGrid.primary);
    connect(grid.outlet, fromGrid.secondary);
    connect(fromGrid.outlet, house.inlet);
    connect(demand.y, house.P_demand);
    connect(charger.heatPort, room.port);
    connect(room.port, wall.port_a);
    connect(wall.port_b, outside.port);
    annotation(experiment(StartTime = 0, StopTime = 172800, Tolerance = 1e-08, Interval = 60));
  end SolarHouse;

  model PriorityBus "A 1500 W source serves two 1000 W loads in priority order"
    Components.Source source(P_max = 1500);
    Components.PriorityBus bus(n = 2);
    S.Sources.Constant demand[2](each k = 1000);
    Components.Load load[2] "load[1] has priority 1, load[2] priority 2";
  equation
    connect(source.outlet, bus.inlet);
    for i in 1:2 loop
      connect(bus.outlet[i], load[i].inlet);
      connect(demand[i].y, load[i].P_demand);
    end for;
    annotation(experiment(StartTime = 0, StopTime = 3600, Tolerance = 1e-08, Interval = 60));
  end PriorityBus;

end Examples;
