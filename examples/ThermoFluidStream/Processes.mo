within ThermoFluidStream;
package Processes "Components along a path: they pass the state on and add their inertance"

  model FlowResistance "Pipe friction with a choice of law; the steady pressure drops by the loss"
    replaceable package Medium = Media.SimpleAir constrainedby Media.PartialMedium;
    parameter Interfaces.PressureLoss law = Interfaces.PressureLoss.laminarTurbulent "Pressure-loss law";
    parameter SI.Length r = 0.01 "Radius";
    parameter SI.Length l = 1 "Length";
    parameter Real k(unit = "1/(m.s)") = 1e3 "Linear coefficient of the linear-quadratic law";
    parameter Real k2(unit = "1/(kg.m)") = 0 "Quadratic coefficient of the linear-quadratic law";
    parameter SI.Length ks = 1e-7 "Surface roughness of the laminar-turbulent law";
    parameter Units.Inertance L = l/(Modelica.Constants.pi*r^2) "Inertance of the pipe";
    parameter SI.Density rho_min = 1e-10 "Lower bound of the inlet density";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet;
    Units.MassFlowRate m_flow "Mass flow rate from inlet to outlet";
    SI.Density rho_in "Inlet density";
    Units.DynamicViscosity mu_in "Inlet viscosity";
    Units.Pressure dp "Pressure difference outlet - inlet";
  equation
    m_flow = -outlet.m_flow;
    inlet.m_flow = m_flow;
    rho_in = max(rho_min, Medium.density(Medium.setState_phX(inlet.p, inlet.h)));
    mu_in = Medium.dynamicViscosity(Medium.setState_phX(inlet.p, inlet.h));
    dp = -(if law == Interfaces.PressureLoss.linearQuadratic then
             Functions.linearQuadraticPressureLoss(m_flow, k, k2)
           elseif law == Interfaces.PressureLoss.laminar then
             Functions.laminarPressureLoss(m_flow, rho_in, mu_in, r, l)
           else
             Functions.laminarTurbulentPressureLoss(m_flow, rho_in, mu_in, r, l, ks));
    outlet.r = inlet.r;
    outlet.L = inlet.L + L;
    outlet.p = inlet.p + dp;
    outlet.h = inlet.h;
  end FlowResistance;

  model Pump "Pump with the nominal-flow characteristic, speed as an input"
    replaceable package Medium = Media.SimpleLiquidWater constrainedby Media.PartialMedium;
    parameter SI.AngularVelocity omega_D = 314.2 "Design angular velocity";
    parameter Units.Pressure dp_D = 5e5 "Design pressure rise";
    parameter Units.VolumeFlowRate V_flow_D = 1.6667e-3 "Design volume flow rate";
    parameter Real slip_D(unit = "1") = 0.5 "Design slip (V_nominal - V)/V_nominal";
    parameter Real eta_D(unit = "1") = 0.75 "Design efficiency";
    parameter Units.Inertance L = 0.01 "Inertance of the pump";
    parameter Units.MassFlowRate m_flow_reg = 0.01 "Regularisation of h_out = h_in + W/m at zero flow";
    parameter SI.AngularVelocity omega_reg = 1 "Regularisation of the work at zero speed";
    parameter SI.Density rho_min = 1e-10 "Lower bound of the inlet density";
    parameter SI.Volume V_r = V_flow_D*2*Modelica.Constants.pi/omega_D/(1 - slip_D) "Displacement per revolution";
    parameter Real k_p(unit = "Pa.s/m3") = dp_D/(slip_D/(1 - slip_D)*V_flow_D) "Linear pressure factor";
    parameter Real k_fric(unit = "N.m.s/m3") = dp_D*(1 - slip_D)/(slip_D*omega_D)*(1/eta_D - 1) "Linear friction factor";
    SB.RealInput omega(unit = "rad/s") "Speed";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet;
    Units.MassFlowRate m_flow "Mass flow rate from inlet to outlet";
    SI.Density rho_in "Inlet density";
    Units.VolumeFlowRate V_flow "Volume flow rate";
    Units.VolumeFlowRate V_flow_nominal "Volume flow rate at zero pressure rise";
    Units.Pressure dp "Pressure rise";
    SI.Torque tau "Steady torque";
    SI.Power W "Work given to the fluid";
    Units.SpecificEnthalpy dh "Enthalpy rise";
  equation
    m_flow = -outlet.m_flow;
    inlet.m_flow = m_flow;
    rho_in = max(rho_min, Medium.density(Medium.setState_phX(inlet.p, inlet.h)));
    V_flow = m_flow/rho_in;
    V_flow_nominal = omega*V_r/(2*Modelica.Constants.pi);
    dp = k_p*(V_flow_nominal - V_flow);
    tau = V_flow*dp*omega/(omega^2 + omega_reg^2) + k_fric*(V_flow_nominal - V_flow);
    W = tau*omega;
    // W/m, regularised so that zero flow gives zero rise instead of 0/0.
    dh = m_flow*W/(m_flow^2 + m_flow_reg^2);
    outlet.r = inlet.r;
    outlet.L = inlet.L + L;
    outlet.p = inlet.p + dp;
    outlet.h = inlet.h + dh;
  end Pump;

  model ConductionElement "Pipe cell with an enthalpy state, heated through its port: Q = k*(T_port - T)"
    replaceable package Medium = Media.SimpleLiquidWater constrainedby Media.PartialMedium;
    parameter SI.Volume V = 1e-3 "Fluid volume of the cell";
    parameter SI.ThermalConductance k = 200 "Conductance between port and fluid";
    parameter SI.Temperature T_start = 293.15 "Initial temperature";
    parameter Units.AbsolutePressure p_start = 1e5 "Pressure at which T_start gives the initial enthalpy";
    parameter Units.Inertance L = 0.01 "Inertance of the cell";
    parameter SI.Density rho_min = 1e-10 "Lower bound of the density";
    parameter Units.SpecificEnthalpy h_start = Medium.specificEnthalpy(Medium.setState_pTX(p_start, T_start)) "Initial specific enthalpy";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet;
    TI.HeatPortIn heatPort;
    B.ContinuousState h(unit = "J/kg", start = h_start) "Specific enthalpy of the cell";
    Units.MassFlowRate m_flow "Mass flow rate from inlet to outlet";
    SI.Mass M "Mass of the cell, quasi-stationary";
    SI.Temperature T "Temperature of the fluid";
    SI.HeatFlowRate Q_flow "Heat flow rate into the fluid";
    Units.SpecificEnthalpy h_in "Enthalpy the flow brings (the cell's own on reverse flow)";
  equation
    m_flow = -outlet.m_flow;
    inlet.m_flow = m_flow;
    M = V*max(rho_min, Medium.density(Medium.setState_phX(inlet.p, h)));
    T = Medium.temperature(Medium.setState_phX(inlet.p, h));
    Q_flow = k*(heatPort.T - T);
    heatPort.Q_flow = Q_flow;
    h_in = noEvent(if m_flow >= 0 then inlet.h else h);
    // The cell's mass is taken as stationary (m_in = m_out), as in the
    // published element with neglectPressureChanges.
    der(h) = (Q_flow + m_flow*(h_in - h))/M;
    outlet.r = inlet.r;
    outlet.L = inlet.L + L;
    outlet.p = inlet.p;
    outlet.h = h;
  end ConductionElement;

  model ConductionChannel "Carries a stream past a chain of n ConductionCells: adds their inertance once and hands them m_flow, p and the inflow's h as signals"
    // A radiator of n ConductionElements in series passes r, L and p down
    // and m_flow with its derivative up through every cell: each cell is a
    // link of a chain that an evaluation walks cell by cell. The channel
    // holds the path equations once (no pressure drop, inertance n*L), and
    // the cells, fed by signals, hold the energy balances; the enthalpy
    // goes from cell to cell as a state, so no cell waits on another within
    // an evaluation. The equations are those of n ConductionElements in
    // series (docs/thermofluid.md, "The cooling loop").
    parameter Integer n = 1 "Number of cells";
    parameter Units.Inertance L = 0.01 "Inertance of one cell";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet;
    SB.RealInput h_last(unit = "J/kg") "Enthalpy of the last cell, which leaves through the outlet";
    SB.RealOutput m_flow(unit = "kg/s") "Mass flow rate from inlet to outlet, for every cell";
    SB.RealOutput p(unit = "Pa") "Steady-state pressure, for every cell";
    SB.RealOutput h_inflow(unit = "J/kg") "Enthalpy that a forward flow brings into the first cell";
  equation
    m_flow = -outlet.m_flow;
    inlet.m_flow = m_flow;
    outlet.r = inlet.r;
    outlet.L = inlet.L + n*L;
    outlet.p = inlet.p;
    outlet.h = h_last;
    p = inlet.p;
    h_inflow = inlet.h;
  end ConductionChannel;

  model ConductionCell "A ConductionElement's energy balance on signals, for a ConductionChannel: Q = k*(T_port - T)"
    replaceable package Medium = Media.SimpleLiquidWater constrainedby Media.PartialMedium;
    parameter SI.Volume V = 1e-3 "Fluid volume of the cell";
    parameter SI.ThermalConductance k = 200 "Conductance between port and fluid";
    parameter SI.Temperature T_start = 293.15 "Initial temperature";
    parameter Units.AbsolutePressure p_start = 1e5 "Pressure at which T_start gives the initial enthalpy";
    parameter SI.Density rho_min = 1e-10 "Lower bound of the density";
    parameter Units.SpecificEnthalpy h_start = Medium.specificEnthalpy(Medium.setState_pTX(p_start, T_start)) "Initial specific enthalpy";
    SB.RealInput h_up(unit = "J/kg") "Enthalpy a forward flow brings: the upstream cell's, or the channel's inflow";
    SB.RealInput m_flow(unit = "kg/s") "Mass flow rate, from the channel";
    SB.RealInput p(unit = "Pa") "Steady-state pressure, from the channel";
    SB.RealOutput h_out(unit = "J/kg") "The cell's enthalpy, for the next cell";
    TI.HeatPortIn heatPort;
    B.ContinuousState h(unit = "J/kg", start = h_start) "Specific enthalpy of the cell";
    SI.Mass M "Mass of the cell, quasi-stationary";
    SI.Temperature T "Temperature of the fluid";
    SI.HeatFlowRate Q_flow "Heat flow rate into the fluid";
    Units.SpecificEnthalpy h_in "Enthalpy the flow brings (the cell's own on reverse flow)";
  equation
    M = V*max(rho_min, Medium.density(Medium.setState_phX(p, h)));
    T = Medium.temperature(Medium.setState_phX(p, h));
    Q_flow = k*(heatPort.T - T);
    heatPort.Q_flow = Q_flow;
    h_in = noEvent(if m_flow >= 0 then h_up else h);
    der(h) = (Q_flow + m_flow*(h_in - h))/M;
    h_out = h;
  end ConductionCell;

end Processes;
