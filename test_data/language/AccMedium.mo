// A medium package with a thermodynamic state record: setState_pT returns
// the record, density and specificEnthalpy take it. A model binds record
// variables to calls, modifies a record component's fields, passes a call's
// record result straight to another function, and reads a field.
encapsulated package AccMedium
  import B = Base;
  import SI = Base.Units;

  package Medium "Ideal gas with a constant specific heat (air)"
    constant Real R(unit = "J/(kg.K)") = 287.05 "Specific gas constant";
    constant SI.SpecificHeatCapacity cp = 1005 "Specific heat capacity at constant pressure";
    constant SI.Temperature T_ref = 273.15 "Temperature at which h = 0";

    record ThermodynamicState "Pressure and temperature"
      Real p(unit = "Pa") "Pressure";
      SI.Temperature T "Temperature";
    end ThermodynamicState;

    function setState_pT "The state at pressure p and temperature T"
      input Real p(unit = "Pa");
      input SI.Temperature T;
      output ThermodynamicState state;
    algorithm
      state := ThermodynamicState(p = p, T = T);
    end setState_pT;

    function density "rho = p/(R*T)"
      input ThermodynamicState state;
      output SI.Density d;
    algorithm
      d := state.p/(R*state.T);
    end density;

    function specificEnthalpy "h = cp*(T - T_ref)"
      input ThermodynamicState state;
      output Real h(unit = "J/kg");
    algorithm
      h := cp*(state.T - T_ref);
    end specificEnthalpy;
  end Medium;

  model HeatedGas "Isobaric gas volume with a through-flow, a heater and a loss"
    parameter Real p(unit = "Pa") = 1e5 "Pressure";
    parameter SI.Volume V = 0.5 "Volume";
    parameter Real m_flow(unit = "kg/s") = 0.002 "Through-flow";
    parameter SI.Temperature T_in = 283.15 "Inflow temperature";
    parameter SI.HeatFlowRate Q = 400 "Heater power";
    parameter SI.ThermalConductance G = 2 "Loss to the surroundings";
    parameter SI.Temperature T_amb = 293.15 "Surroundings";
    B.ContinuousState T(unit = "K", start = 293.15) "Gas temperature";
    Medium.ThermodynamicState state = Medium.setState_pT(p, T) "Gas state";
    Medium.ThermodynamicState ambient(p = p, T = T_amb) "Surroundings' state";
    SI.Density rho "Gas density";
    SI.Density rho_in "Inflow density";
    SI.Density rho_amb "Density of the surroundings";
    Real h(unit = "J/kg") "Gas specific enthalpy";
    SI.Mass m "Gas in the volume";
    SI.Temperature T_state "The state's temperature";
  equation
    rho = Medium.density(state);
    rho_in = Medium.density(Medium.setState_pT(p, T_in));
    rho_amb = Medium.density(ambient);
    h = Medium.specificEnthalpy(state);
    T_state = state.T;
    m = rho*V;
    der(T) = (m_flow*(Medium.specificEnthalpy(Medium.setState_pT(p, T_in)) - h) + Q - G*(T - T_amb))/(m*Medium.cp);
  end HeatedGas;

end AccMedium;
