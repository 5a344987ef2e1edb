within ThermoFluidStream;
package Sensors "Sensors with Signal Blocks outputs"

  // A sensor of the state taps an outlet beside the component it feeds and
  // draws no flow; the mass-flow sensor sits in the path.

  model Pressure "Steady-state pressure of the stream"
    Interfaces.Inlet inlet;
    SB.RealOutput p(unit = "Pa") "Pressure";
  equation
    inlet.m_flow = 0;
    p = inlet.p;
  end Pressure;

  model Temperature "Temperature of the stream"
    replaceable package Medium = Media.SimpleAir constrainedby Media.PartialMedium;
    Interfaces.Inlet inlet;
    SB.RealOutput T(unit = "K") "Temperature";
  equation
    inlet.m_flow = 0;
    T = Medium.temperature(Medium.setState_phX(inlet.p, inlet.h));
  end Temperature;

  model SpecificEnthalpy "Specific enthalpy of the stream"
    Interfaces.Inlet inlet;
    SB.RealOutput h(unit = "J/kg") "Specific enthalpy";
  equation
    inlet.m_flow = 0;
    h = inlet.h;
  end SpecificEnthalpy;

  model MassFlowRate "Mass flow rate through the sensor, in the path (adds no inertance)"
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet;
    SB.RealOutput m_flow(unit = "kg/s") "Mass flow rate";
  equation
    m_flow = -outlet.m_flow;
    inlet.m_flow = m_flow;
    outlet.r = inlet.r;
    outlet.L = inlet.L;
    outlet.p = inlet.p;
    outlet.h = inlet.h;
  end MassFlowRate;

end Sensors;
