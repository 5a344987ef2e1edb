// A PriorityBus over three outlets (loaded after examples/EnergyFlows):
// tests/it/energy_flows.rs checks that each outlet is served from what the
// outlets before it leave.
encapsulated package ThreeLoads
  import EnergyFlows;
  import Signals;

  model PriorityBus3 "A 2500 W source serves three 1000 W loads in priority order"
    EnergyFlows.Components.Source source(P_max = 2500);
    EnergyFlows.Components.PriorityBus bus(n = 3);
    Signals.Sources.Constant demand[3](each k = 1000);
    EnergyFlows.Components.Load load[3] "load[k] has priority k";
  equation
    connect(source.outlet, bus.inlet);
    for i in 1:3 loop
      connect(bus.outlet[i], load[i].inlet);
      connect(demand[i].y, load[i].P_demand);
    end for;
    annotation(experiment(StartTime = 0, StopTime = 3600, Tolerance = 1e-08, Interval = 60));
  end PriorityBus3;
end ThreeLoads;
