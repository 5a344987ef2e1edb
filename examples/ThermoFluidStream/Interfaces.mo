within ThermoFluidStream;
package Interfaces "Directed stream connectors"

  // A stream flows from an Outlet to an Inlet. Downstream travel the
  // inertial pressure r (without the inertial term of the path it lies on),
  // the inertance L accumulated along the path so far, and the
  // thermodynamic state (p, h). The mass flow rate comes back upstream as
  // the flow variable: the component that closes the path (a sink or a
  // volume inlet) owns it as a state. The true inertial pressure at a
  // connector is r - L*der(m_flow) (docs/thermofluid.md). The mass flow
  // rate carries its derivative, so a splitter can close its declared
  // tearing with the accelerations of the paths it feeds.

  connector Inlet "Stream inlet: receives r, L and the state; determines the mass flow rate into its owner"
    input Units.Pressure r "Inertial pressure without the path's inertial term";
    input Units.Inertance L "Inertance of the path upstream of this point";
    input Units.AbsolutePressure p "Steady-state pressure";
    input Units.SpecificEnthalpy h "Specific enthalpy";
    flow Units.MassFlowRateWithDerivative m_flow "Mass flow rate into the owner; carries its derivative";
  end Inlet;

  connector Outlet "Stream outlet: determines r, L and the state; receives the mass flow rate"
    output Units.Pressure r "Inertial pressure without the path's inertial term";
    output Units.Inertance L "Inertance of the path upstream of this point, this component included";
    output Units.AbsolutePressure p "Steady-state pressure";
    output Units.SpecificEnthalpy h "Specific enthalpy";
    flow Units.MassFlowRateWithDerivative m_flow "Mass flow rate into the owner (negative when the fluid leaves); carries its derivative";
  end Outlet;

  type PressureLoss = enumeration(
    linearQuadratic "k*m + k2*m*|m|",
    laminar "Hagen-Poiseuille, 8 mu l m/(pi rho r^4)",
    laminarTurbulent "Cheng (2008), laminar to turbulent with roughness")
    "Pressure-loss law of a FlowResistance";

end Interfaces;
