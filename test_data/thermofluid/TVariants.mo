// Examples.Splitter (twice) and Examples.Junction (without its sensors) built
// from the T variants, the N classes with N = 2 behind two named ports:
// tests/it/thermofluid.rs checks them against the same references.
encapsulated package TVariants
  import ThermoFluidStream;
  import ThermoFluidStream.Boundaries;
  import ThermoFluidStream.Processes;
  import ThermoFluidStream.Topology;
  import ThermoFluidStream.Interfaces;
  import ThermoFluidStream.Media;

  model Splitter "Examples.Splitter with a SplitterT2"
    Boundaries.Source source(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Processes.FlowResistance pipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.01, l = 1);
    Topology.SplitterT2 splitter;
    Processes.FlowResistance pipeA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Boundaries.Sink sinkA(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Sink sinkB(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
  equation
    connect(source.outlet, pipe.inlet);
    connect(pipe.outlet, splitter.inlet);
    connect(splitter.outletA, pipeA.inlet);
    connect(splitter.outletB, pipeB.inlet);
    connect(pipeA.outlet, sinkA.inlet);
    connect(pipeB.outlet, sinkB.inlet);
  end Splitter;

  model SplitterT1 "Examples.Splitter with a SplitterT1"
    Boundaries.Source source(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Processes.FlowResistance pipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.01, l = 1);
    Topology.SplitterT1 splitter;
    Processes.FlowResistance pipeA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Boundaries.Sink sinkA(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Sink sinkB(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
  equation
    connect(source.outlet, pipe.inlet);
    connect(pipe.outlet, splitter.inlet);
    connect(splitter.outletA, pipeA.inlet);
    connect(splitter.outletB, pipeB.inlet);
    connect(pipeA.outlet, sinkA.inlet);
    connect(pipeB.outlet, sinkB.inlet);
  end SplitterT1;

  model Junction "Examples.Junction with a JunctionT2, without the sensors"
    Boundaries.Source cold(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Boundaries.Source hot(redeclare package Medium = Media.SimpleLiquidWater, p0 = 3e5, T0 = 353.15);
    Processes.FlowResistance pipeA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Topology.JunctionT2 junction;
    Processes.FlowResistance pipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.01, l = 1);
    Boundaries.Sink sink(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
  equation
    connect(cold.outlet, pipeA.inlet);
    connect(hot.outlet, pipeB.inlet);
    connect(pipeA.outlet, junction.inletA);
    connect(pipeB.outlet, junction.inletB);
    connect(junction.outlet, pipe.inlet);
    connect(pipe.outlet, sink.inlet);
  end Junction;
end TVariants;
