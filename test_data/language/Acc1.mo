// Functions, records and package constants: a liquid whose enthalpy law is a
// record constant, evaluated through functions with algorithm sections.
encapsulated package Acc1
  import B = Base;
  import SI = Base.Units;

  record LinearLiquid "Constant-property liquid"
    SI.SpecificHeatCapacity cp "Specific heat capacity";
    SI.Temperature T_ref "Temperature at which h = 0";
  end LinearLiquid;

  constant LinearLiquid water = LinearLiquid(cp = 4184, T_ref = 273.15);

  function specificEnthalpy "h = cp*(T - T_ref)"
    input SI.Temperature T;
    input LinearLiquid liquid;
    output Real h(unit = "J/kg");
  algorithm
    h := liquid.cp*(T - liquid.T_ref);
  end specificEnthalpy;

  function temperature "Inverse of specificEnthalpy"
    input Real h(unit = "J/kg");
    input LinearLiquid liquid;
    output SI.Temperature T;
  algorithm
    T := liquid.T_ref + h/liquid.cp;
  end temperature;

  model MixingTank "Well-mixed tank with a through-flow and a heater"
    parameter SI.Mass m = 10 "Liquid in the tank";
    parameter Real m_flow(unit = "kg/s") = 0.1 "Through-flow";
    parameter SI.Temperature T_in = 288.15 "Inflow temperature";
    parameter SI.HeatFlowRate Q = 2000 "Heater power";
    B.ContinuousState h(unit = "J/kg", start = specificEnthalpy(293.15, water)) "Specific enthalpy in the tank";
    SI.Temperature T "Tank temperature";
  equation
    T = temperature(h, water);
    der(h) = (m_flow*(specificEnthalpy(T_in, water) - h) + Q)/m;
  end MixingTank;

end Acc1;
