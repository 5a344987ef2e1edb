within ThermoFluidStream;
package Examples "Examples; docs/thermofluid.md derives their reference solutions"

  model FlowResistance "One source feeds a linear-quadratic and a laminar path to sinks at 1 bar"
    Boundaries.Source source(p0 = 3e5, T0 = 300);
    Processes.FlowResistance linQuad(law = Interfaces.PressureLoss.linearQuadratic, k = 1000, k2 = 100, r = 0.1, l = 100);
    Boundaries.Sink sinkLinQuad(p0 = 1e5, m_flow_0 = 40) "Starts at the steady state 40 kg/s";
    Processes.FlowResistance laminar(law = Interfaces.PressureLoss.laminar, r = 0.02, l = 100, L = 1000);
    Boundaries.Sink sinkLaminar(p0 = 1e5, m_flow_0 = 0) "Starts at rest";
  equation
    connect(source.outlet, linQuad.inlet);
    connect(linQuad.outlet, sinkLinQuad.inlet);
    connect(source.outlet, laminar.inlet);
    connect(laminar.outlet, sinkLaminar.inlet);
    annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-08, Interval = 0.01));
  end FlowResistance;

  model Pump "A pump at its design speed lifts water from 1 bar to 6 bar"
    SBS.Constant speed(k = 100) "Pump speed, rad/s";
    Boundaries.Source source(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5, T0 = 300);
    Processes.Pump pump(redeclare package Medium = Media.SimpleLiquidWater, omega_D = 100, dp_D = 5e5, V_flow_D = 1.6667e-3, slip_D = 0.5, L = 1e4);
    Boundaries.Sink sink(redeclare package Medium = Media.SimpleLiquidWater, p0 = 6e5);
  equation
    connect(speed.y, pump.omega);
    connect(source.outlet, pump.inlet);
    connect(pump.outlet, sink.inlet);
    annotation(experiment(StartTime = 0, StopTime = 30, Tolerance = 1e-08, Interval = 0.01));
  end Pump;

  model HeatedVolume "Air flows through a volume heated from a 500 K wall"
    parameter Boolean heated = true "Heat the volume from the wall; false: the volume has no heat port and there is no wall";
    Boundaries.Source source(p0 = 2e5, T0 = 293.15);
    Processes.FlowResistance flowResistance1(law = Interfaces.PressureLoss.laminarTurbulent, r = 0.01, l = 1, ks = 1e-5);
    // Both paths start with air already flowing (0.1 kg/s): at zero flow the
    // volume's inflow enthalpy switches (noEvent, as published), and a
    // start on that kink would leave the Jacobian at t = 0 one-sided.
    Boundaries.Volume volume(V = 1, p_start = 1.5e5, T_start = 313.15, useHeatPort = heated, U = 200, A = 2, m_flow_0 = 0.1) "U*A = 400 W/K";
    TC.FixedTemperature wall(T = 500) if heated;
    Processes.FlowResistance flowResistance2(law = Interfaces.PressureLoss.laminarTurbulent, r = 0.01, l = 1, ks = 1e-5);
    Boundaries.Sink sink(p0 = 1e5, m_flow_0 = 0.1);
  equation
    connect(source.outlet, flowResistance1.inlet);
    connect(flowResistance1.outlet, volume.inlet);
    connect(wall.port, volume.heatPort);
    connect(volume.outlet, flowResistance2.inlet);
    connect(flowResistance2.outlet, sink.inlet);
    annotation(experiment(StartTime = 0, StopTime = 1, Tolerance = 1e-08, Interval = 0.001));
  end HeatedVolume;

  model HeatedPipe "Water from a 2 bar source through a pipe, a stiff tank and a heated cell to 1 bar"
    Boundaries.Source source(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Processes.FlowResistance pipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 100);
    Boundaries.VolumeLiquid tank(V = 0.01, K = 2.2e9, p_ref = 1e5, p_start = 1.5e5, T_start = 293.15);
    Processes.ConductionElement heater(V = 1e-3, k = 500, T_start = 293.15);
    TC.FixedTemperature wall(T = 353.15);
    Sensors.Temperature temperature(redeclare package Medium = Media.SimpleLiquidWater) "Taps the heater's outlet";
    Processes.FlowResistance outletPipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 100);
    Boundaries.Sink sink(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
  equation
    connect(source.outlet, pipe.inlet);
    connect(pipe.outlet, tank.inlet);
    connect(tank.outlet, heater.inlet);
    connect(wall.port, heater.heatPort);
    connect(heater.outlet, outletPipe.inlet);
    connect(heater.outlet, temperature.inlet);
    connect(outletPipe.outlet, sink.inlet);
    // The tank's pressure moves by 4e-4 Pa about 1.5e5 Pa, and K = 2.2e9 Pa
    // turns a relative error e of its mass into K*e of pressure: at a
    // tolerance of 1e-8 an integrator's ripple of about 0.6 Pa swamps it.
    annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-11, Interval = 0.01));
  end HeatedPipe;

  model Splitter "Water from one source divides between two pipes of 2x different length into two sinks"
    Boundaries.Source source(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Processes.FlowResistance pipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.01, l = 1);
    Topology.Splitter splitter;
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
    annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-08, Interval = 0.01));
  end Splitter;

  model Junction "Cold and hot water from two sources mix in a junction and flow to one sink"
    Boundaries.Source cold(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Boundaries.Source hot(redeclare package Medium = Media.SimpleLiquidWater, p0 = 3e5, T0 = 353.15);
    Processes.FlowResistance pipeA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Topology.Junction junction;
    Sensors.MassFlowRate massFlow "In the outlet path";
    Sensors.Pressure pressure "Taps the junction's outlet";
    Sensors.SpecificEnthalpy enthalpy "Taps the junction's outlet";
    Processes.FlowResistance pipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.01, l = 1);
    Boundaries.Sink sink(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
  equation
    connect(cold.outlet, pipeA.inlet);
    connect(hot.outlet, pipeB.inlet);
    connect(pipeA.outlet, junction.inletA);
    connect(pipeB.outlet, junction.inletB);
    connect(junction.outlet, massFlow.inlet);
    connect(junction.outlet, pressure.inlet);
    connect(junction.outlet, enthalpy.inlet);
    connect(massFlow.outlet, pipe.inlet);
    connect(pipe.outlet, sink.inlet);
    annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-08, Interval = 0.01));
  end Junction;

  model CoolingLoop "A pump drives water around a closed loop: heater, two parallel resistances, a radiator of n cells"
    // The loop, in the stream's direction: volume (bulk modulus) -> pump ->
    // heater -> splitter -> resA / resB (laminar, resB twice as long) ->
    // junction -> pipe[1] ... pipe[n] -> volume. The volume closes the
    // return path (its inlet owns the loop's flow) and starts the pump's
    // path; the junction owns the flow through resA. The heater's 2 kW go
    // into a wall that heats the water through k_heater; each radiator cell
    // gives heat to the ambient through 500/n W/K; the radiator holds 2 l of
    // water, 2e-3/n m3 per cell, whatever n. Everything starts at 293.15 K
    // and 2 bar. (The modifiers of a component array must be known at
    // export: literals and Integer parameters.)
    parameter Integer n = 10 "Number of radiator cells";
    SBS.Constant speed(k = 100) "Pump speed, rad/s";
    Boundaries.VolumeLiquid volume(V = 0.01, K = 2.2e9, p_ref = 1e5, p_start = 2e5, T_start = 293.15, m_flow_0 = 1.2) "Starts with the loop at about its steady flow";
    Processes.Pump pump(omega_D = 100, dp_D = 1e5, V_flow_D = 1e-3, slip_D = 0.5);
    TC.FixedHeatFlow heatSource(Q_flow = 2000) "The heater's 2 kW";
    TC.HeatCapacitor heaterWall(C = 500, T0 = 293.15) "Heating element: takes the 2 kW and heats the water through its port";
    Processes.ConductionElement heater(V = 1e-3, k = 500, T_start = 293.15, p_start = 2e5);
    Topology.Splitter splitter;
    Processes.FlowResistance resA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.004, l = 10);
    Processes.FlowResistance resB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.004, l = 20) "Twice the resistance of resA";
    Topology.Junction junction(m_flow_0 = 0.8) "Path A (through resA) starts at about its steady flow";
    Processes.ConductionElement pipe[n](each V = 2e-3/n, each k = 500/n, each T_start = 293.15, each p_start = 2e5) "Radiator cells";
    TC.FixedTemperature ambient(T = 293.15) "Takes the radiator's heat (the volume has no heat port)";
  equation
    connect(speed.y, pump.omega);
    connect(volume.outlet, pump.inlet);
    connect(pump.outlet, heater.inlet);
    connect(heatSource.port, heaterWall.port);
    connect(heaterWall.port, heater.heatPort);
    connect(heater.outlet, splitter.inlet);
    connect(splitter.outletA, resA.inlet);
    connect(splitter.outletB, resB.inlet);
    connect(resA.outlet, junction.inletA);
    connect(resB.outlet, junction.inletB);
    connect(junction.outlet, pipe[1].inlet);
    for i in 1:n - 1 loop
      connect(pipe[i].outlet, pipe[i + 1].inlet);
    end for;
    for i in 1:n loop
      connect(ambient.port, pipe[i].heatPort);
    end for;
    connect(pipe[n].outlet, volume.inlet);
    annotation(experiment(StartTime = 0, StopTime = 600, Tolerance = 1e-08, Interval = 0.5));
  end CoolingLoop;

  model CoolingLoopChannel "CoolingLoop with the radiator as a ConductionChannel and n ConductionCells: the same equations, no chain through the cells"
    // The loop, in the stream's direction: volume (bulk modulus) -> pump ->
    // heater -> splitter -> resA / resB (laminar, resB twice as long) ->
    // junction -> radiator (pipe[1] ... pipe[n]) -> volume. The volume closes the
    // return path (its inlet owns the loop's flow) and starts the pump's
    // path; the junction owns the flow through resA. The heater's 2 kW go
    // into a wall that heats the water through k_heater; each radiator cell
    // gives heat to the ambient through 500/n W/K; the radiator holds 2 l of
    // water, 2e-3/n m3 per cell, whatever n. Everything starts at 293.15 K
    // and 2 bar. (The modifiers of a component array must be known at
    // export: literals and Integer parameters.)
    parameter Integer n = 10 "Number of radiator cells";
    SBS.Constant speed(k = 100) "Pump speed, rad/s";
    Boundaries.VolumeLiquid volume(V = 0.01, K = 2.2e9, p_ref = 1e5, p_start = 2e5, T_start = 293.15, m_flow_0 = 1.2) "Starts with the loop at about its steady flow";
    Processes.Pump pump(omega_D = 100, dp_D = 1e5, V_flow_D = 1e-3, slip_D = 0.5);
    TC.FixedHeatFlow heatSource(Q_flow = 2000) "The heater's 2 kW";
    TC.HeatCapacitor heaterWall(C = 500, T0 = 293.15) "Heating element: takes the 2 kW and heats the water through its port";
    Processes.ConductionElement heater(V = 1e-3, k = 500, T_start = 293.15, p_start = 2e5);
    Topology.Splitter splitter;
    Processes.FlowResistance resA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.004, l = 10);
    Processes.FlowResistance resB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.004, l = 20) "Twice the resistance of resA";
    Topology.Junction junction(m_flow_0 = 0.8) "Path A (through resA) starts at about its steady flow";
    Processes.ConductionChannel radiator(n = n) "The radiator's path: inertance n*0.01 as the n elements' together";
    Processes.ConductionCell pipe[n](each V = 2e-3/n, each k = 500/n, each T_start = 293.15, each p_start = 2e5) "Radiator cells";
    TC.FixedTemperature ambient(T = 293.15) "Takes the radiator's heat (the volume has no heat port)";
  equation
    connect(speed.y, pump.omega);
    connect(volume.outlet, pump.inlet);
    connect(pump.outlet, heater.inlet);
    connect(heatSource.port, heaterWall.port);
    connect(heaterWall.port, heater.heatPort);
    connect(heater.outlet, splitter.inlet);
    connect(splitter.outletA, resA.inlet);
    connect(splitter.outletB, resB.inlet);
    connect(resA.outlet, junction.inletA);
    connect(resB.outlet, junction.inletB);
    connect(junction.outlet, radiator.inlet);
    connect(radiator.outlet, volume.inlet);
    connect(radiator.h_inflow, pipe[1].h_up);
    for i in 1:n - 1 loop
      connect(pipe[i].h_out, pipe[i + 1].h_up);
    end for;
    connect(pipe[n].h_out, radiator.h_last);
    for i in 1:n loop
      connect(radiator.m_flow, pipe[i].m_flow);
      connect(radiator.p, pipe[i].p);
      connect(ambient.port, pipe[i].heatPort);
    end for;
    annotation(experiment(StartTime = 0, StopTime = 600, Tolerance = 1e-08, Interval = 0.5));
  end CoolingLoopChannel;

  model JunctionN "Water at three temperatures mixes in a three-way junction and divides between two sinks"
    Boundaries.Source cold(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Boundaries.Source warm(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2.5e5, T0 = 323.15);
    Boundaries.Source hot(redeclare package Medium = Media.SimpleLiquidWater, p0 = 3e5, T0 = 353.15);
    Processes.FlowResistance pipe1(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipe2(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Processes.FlowResistance pipe3(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 30);
    Topology.JunctionN junction(N = 3);
    Processes.FlowResistance pipe(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.01, l = 1);
    Topology.SplitterN splitter(N = 2);
    Processes.FlowResistance pipeA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Boundaries.Sink sinkA(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Sink sinkB(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
  equation
    connect(cold.outlet, pipe1.inlet);
    connect(warm.outlet, pipe2.inlet);
    connect(hot.outlet, pipe3.inlet);
    connect(pipe1.outlet, junction.inlet[1]);
    connect(pipe2.outlet, junction.inlet[2]);
    connect(pipe3.outlet, junction.inlet[3]);
    connect(junction.outlet, pipe.inlet);
    connect(pipe.outlet, splitter.inlet);
    connect(splitter.outlet[1], pipeA.inlet);
    connect(splitter.outlet[2], pipeB.inlet);
    connect(pipeA.outlet, sinkA.inlet);
    connect(pipeB.outlet, sinkB.inlet);
    annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-08, Interval = 0.01));
  end JunctionN;

  model Fittings "The T and X fittings in three networks of water: three-way mixing, a three-way split and a T junction; and two X junctions"
    // Network 1: cold, warm and hot water (pipe1..pipe3) mix in junctionX3,
    // flow through pipe4 into splitterX, which feeds sinkA (pipeA), sinkB
    // (pipeB) and, through pipeC, inlet A of junctionT1, where the cold
    // source boost (pipeD) joins; pipeE to sinkE. Networks 2 and 3: two
    // sources each meet in junctionX1 (junctionX2), whose two outlets feed
    // two sinks at different pressures. The networks share nothing: each
    // splitter (splitterX and the one inside each X junction) is alone in
    // its network, so the balances do not couple. All laminar, r = 5 mm
    // unless said; everything starts at rest.
    Boundaries.Source cold(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Boundaries.Source warm(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2.5e5, T0 = 323.15);
    Boundaries.Source hot(redeclare package Medium = Media.SimpleLiquidWater, p0 = 3e5, T0 = 353.15);
    Processes.FlowResistance pipe1(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipe2(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Processes.FlowResistance pipe3(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 30);
    Topology.JunctionX3 junctionX3;
    Processes.FlowResistance pipe4(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.01, l = 1);
    Topology.SplitterX splitterX;
    Processes.FlowResistance pipeA(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeB(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Processes.FlowResistance pipeC(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Boundaries.Sink sinkA(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Sink sinkB(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Source boost(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Processes.FlowResistance pipeD(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Topology.JunctionT1 junctionT1;
    Processes.FlowResistance pipeE(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Boundaries.Sink sinkE(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Source sourceP(redeclare package Medium = Media.SimpleLiquidWater, p0 = 3e5, T0 = 353.15);
    Boundaries.Source sourceQ(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2e5, T0 = 293.15);
    Processes.FlowResistance pipeP(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeQ(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Topology.JunctionX1 junctionX1;
    Processes.FlowResistance pipeF(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeG(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Boundaries.Sink sinkF(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Sink sinkG(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1.2e5);
    Boundaries.Source sourceR(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2.5e5, T0 = 333.15);
    Boundaries.Source sourceS(redeclare package Medium = Media.SimpleLiquidWater, p0 = 2.2e5, T0 = 283.15);
    Processes.FlowResistance pipeR(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 20);
    Processes.FlowResistance pipeS(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Topology.JunctionX2 junctionX2;
    Processes.FlowResistance pipeH(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Processes.FlowResistance pipeI(redeclare package Medium = Media.SimpleLiquidWater, law = Interfaces.PressureLoss.laminar, r = 0.005, l = 10);
    Boundaries.Sink sinkH(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1e5);
    Boundaries.Sink sinkI(redeclare package Medium = Media.SimpleLiquidWater, p0 = 1.5e5);
  equation
    connect(cold.outlet, pipe1.inlet);
    connect(warm.outlet, pipe2.inlet);
    connect(hot.outlet, pipe3.inlet);
    connect(pipe1.outlet, junctionX3.inletA);
    connect(pipe2.outlet, junctionX3.inletB);
    connect(pipe3.outlet, junctionX3.inletC);
    connect(junctionX3.outlet, pipe4.inlet);
    connect(pipe4.outlet, splitterX.inlet);
    connect(splitterX.outletA, pipeA.inlet);
    connect(splitterX.outletB, pipeB.inlet);
    connect(splitterX.outletC, pipeC.inlet);
    connect(pipeA.outlet, sinkA.inlet);
    connect(pipeB.outlet, sinkB.inlet);
    connect(pipeC.outlet, junctionT1.inletA);
    connect(boost.outlet, pipeD.inlet);
    connect(pipeD.outlet, junctionT1.inletB);
    connect(junctionT1.outlet, pipeE.inlet);
    connect(pipeE.outlet, sinkE.inlet);
    connect(sourceP.outlet, pipeP.inlet);
    connect(sourceQ.outlet, pipeQ.inlet);
    connect(pipeP.outlet, junctionX1.inletA);
    connect(pipeQ.outlet, junctionX1.inletB);
    connect(junctionX1.outleta, pipeF.inlet);
    connect(junctionX1.outletb, pipeG.inlet);
    connect(pipeF.outlet, sinkF.inlet);
    connect(pipeG.outlet, sinkG.inlet);
    connect(sourceR.outlet, pipeR.inlet);
    connect(sourceS.outlet, pipeS.inlet);
    connect(pipeR.outlet, junctionX2.inletA);
    connect(pipeS.outlet, junctionX2.inletB);
    connect(junctionX2.outleta, pipeH.inlet);
    connect(junctionX2.outletb, pipeI.inlet);
    connect(pipeH.outlet, sinkH.inlet);
    connect(pipeI.outlet, sinkI.inlet);
    annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-08, Interval = 0.01));
  end Fittings;

end Examples;
