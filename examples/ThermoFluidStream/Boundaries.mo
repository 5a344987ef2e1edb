within ThermoFluidStream;
package Boundaries "Sources, sinks and volumes: where paths start and end"

  model Source "Source at a fixed pressure and temperature: starts a path"
    replaceable package Medium = Media.SimpleAir constrainedby Media.PartialMedium;
    parameter Units.AbsolutePressure p0 = 1e5 "Pressure";
    parameter SI.Temperature T0 = 293.15 "Temperature";
    parameter Units.Inertance L = 0.01 "Inertance of the source, counted into each path that leaves it";
    Interfaces.Outlet outlet;
  equation
    outlet.r = 0;
    outlet.L = L;
    outlet.p = p0;
    outlet.h = Medium.specificEnthalpy(Medium.setState_pTX(p0, T0));
  end Source;

  model Sink "Sink at a fixed pressure: closes a path and owns its mass flow rate"
    replaceable package Medium = Media.SimpleAir constrainedby Media.PartialMedium;
    parameter Units.AbsolutePressure p0 = 1e5 "Pressure";
    parameter Units.Inertance L = 0.01 "Inertance of the sink";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of the path";
    Interfaces.Inlet inlet;
    B.ContinuousState m_flow(unit = "kg/s", start = m_flow_0) "Mass flow rate of the path that ends here";
  equation
    inlet.m_flow = m_flow;
    // The path equation: the total inertance times the acceleration balances
    // the total pressure at the inlet (steady p plus inertial r) against p0.
    der(m_flow) = (inlet.r + inlet.p - p0)/(inlet.L + L);
  end Sink;

  model Volume "Gas volume: closes the inlet path, starts the outlet path; mass and energy balance"
    replaceable package Medium = Media.SimpleAir constrainedby Media.PartialMedium;
    parameter SI.Volume V = 1 "Volume";
    parameter Units.AbsolutePressure p_start = 1e5 "Initial pressure";
    parameter SI.Temperature T_start = 293.15 "Initial temperature";
    parameter Units.Inertance L = 0.01 "Inertance of each port";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial inlet mass flow rate";
    parameter Boolean useHeatPort = false "Give the volume a heat port (absent by default, as published)";
    parameter Units.CoefficientOfHeatTransfer U = 200 "Heat transfer coefficient to the heat port, when there is one";
    parameter SI.Area A = 1 "Heat transfer area to the heat port, when there is one";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet;
    TI.HeatPortIn heatPort if useHeatPort "Connect a Thermal boundary";
    parameter Units.SpecificEnthalpy h_start = Medium.specificEnthalpy(Medium.setState_pTX(p_start, T_start)) "Initial specific enthalpy";
    parameter SI.Mass M_start = V*Medium.density(Medium.setState_phX(p_start, h_start)) "Initial mass";
    parameter Units.InternalEnergy U_med_start = M_start*Medium.specificInternalEnergy(Medium.setState_phX(p_start, h_start)) "Initial internal energy";
    B.ContinuousState M(unit = "kg", start = M_start) "Mass";
    B.ContinuousState U_med(unit = "J", start = U_med_start) "Internal energy of the medium";
    B.ContinuousState m_flow_in(unit = "kg/s", start = m_flow_0) "Mass flow rate through the inlet path";
    Units.AbsolutePressure p "Pressure";
    Units.SpecificEnthalpy h "Specific enthalpy";
    SI.Temperature T "Temperature";
    Units.MassFlowRate m_flow_out "Mass flow rate out through the outlet";
    Units.SpecificEnthalpy h_in "Enthalpy the inlet flow brings (the volume's own on reverse flow)";
    SI.HeatFlowRate Q_flow "Heat flow rate into the fluid";
  equation
    p = Medium.pressure_du(M/V, U_med/M);
    h = Medium.specificEnthalpy_pu(p, U_med/M);
    T = Medium.temperature(Medium.setState_phX(p, h));
    outlet.r = 0;
    outlet.L = L;
    outlet.p = p;
    outlet.h = h;
    inlet.m_flow = m_flow_in;
    der(m_flow_in) = (inlet.r + inlet.p - p)/(inlet.L + L);
    m_flow_out = -outlet.m_flow;
    h_in = noEvent(if m_flow_in >= 0 then inlet.h else h);
    // The heat port is there only when useHeatPort is true: its members
    // are named in the branch of that condition alone.
    if useHeatPort then
      heatPort.Q_flow = U*A*(heatPort.T - T);
      Q_flow = heatPort.Q_flow;
    else
      Q_flow = 0;
    end if;
    der(M) = m_flow_in - m_flow_out;
    der(U_med) = m_flow_in*h_in - m_flow_out*h + Q_flow;
  end Volume;

  model VolumeLiquid "Liquid volume with a bulk modulus: closes the inlet path, starts the outlet path"
    replaceable package Medium = Media.SimpleLiquidWater constrainedby Media.PartialMedium;
    parameter SI.Volume V = 0.01 "Volume of the container";
    parameter Units.BulkModulus K = 2.2e9 "Bulk modulus of liquid and container";
    parameter Units.AbsolutePressure p_ref = 1e5 "Pressure when the liquid at density Medium.rho fills V exactly";
    parameter Units.AbsolutePressure p_start = 1e5 "Initial pressure";
    parameter SI.Temperature T_start = 293.15 "Initial temperature";
    parameter Units.Inertance L = 0.01 "Inertance of each port";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial inlet mass flow rate";
    parameter Boolean useHeatPort = false "Give the volume a heat port (absent by default, as published)";
    parameter Units.CoefficientOfHeatTransfer U = 200 "Heat transfer coefficient to the heat port, when there is one";
    parameter SI.Area A = 1 "Heat transfer area to the heat port, when there is one";
    parameter Units.SpecificEnthalpy h_start = Medium.specificEnthalpy(Medium.setState_pTX(p_start, T_start)) "Initial specific enthalpy";
    parameter SI.Mass M_start = Medium.rho*V*(1 + (p_start - p_ref)/K) "Initial mass";
    parameter Units.InternalEnergy U_med_start = M_start*Medium.specificInternalEnergy(Medium.setState_phX(p_start, h_start)) "Initial internal energy";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet;
    TI.HeatPortIn heatPort if useHeatPort "Connect a Thermal boundary";
    B.ContinuousState p(unit = "Pa", start = p_start) "Pressure";
    B.ContinuousState U_med(unit = "J", start = U_med_start) "Internal energy of the medium";
    B.ContinuousState m_flow_in(unit = "kg/s", start = m_flow_0) "Mass flow rate through the inlet path";
    SI.Mass M "Mass";
    Units.SpecificEnthalpy h "Specific enthalpy";
    SI.Temperature T "Temperature";
    Units.MassFlowRate m_flow_out "Mass flow rate out through the outlet";
    Units.SpecificEnthalpy h_in "Enthalpy the inlet flow brings (the volume's own on reverse flow)";
    SI.HeatFlowRate Q_flow "Heat flow rate into the fluid";
  equation
    // The liquid, compressed into V, raises the pressure by K per unit of
    // relative excess volume: p = p_ref + K*(M/(rho*V) - 1). The pressure is
    // the state, not the mass: with K = 2.2e9 Pa the mass of a full tank
    // would carry the pressure in its ninth digit.
    M = Medium.rho*V*(1 + (p - p_ref)/K);
    h = Medium.specificEnthalpy_pu(p, U_med/M);
    T = Medium.temperature(Medium.setState_phX(p, h));
    outlet.r = 0;
    outlet.L = L;
    outlet.p = p;
    outlet.h = h;
    inlet.m_flow = m_flow_in;
    der(m_flow_in) = (inlet.r + inlet.p - p)/(inlet.L + L);
    m_flow_out = -outlet.m_flow;
    h_in = noEvent(if m_flow_in >= 0 then inlet.h else h);
    // The heat port is there only when useHeatPort is true: its members
    // are named in the branch of that condition alone.
    if useHeatPort then
      heatPort.Q_flow = U*A*(heatPort.T - T);
      Q_flow = heatPort.Q_flow;
    else
      Q_flow = 0;
    end if;
    der(p) = K/(Medium.rho*V)*(m_flow_in - m_flow_out);
    der(U_med) = m_flow_in*h_in - m_flow_out*h + Q_flow;
  end VolumeLiquid;

end Boundaries;
