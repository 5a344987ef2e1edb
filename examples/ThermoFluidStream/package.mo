// ThermoFluid Stream Lite: directed thermofluid streams under assumed
// causality, after the ideas of the DLR ThermofluidStream library (Zimmer
// 2020; Zimmer, Weber, Meissner 2022), with the inertance made local: a
// connector carries the path's accumulated inertance, and the component that
// closes a path (a sink, or a volume's inlet) owns that path's mass flow
// rate as its state. docs/thermofluid.md gives the formulation and why it is
// the published path equation. Load after examples/Base.mo,
// examples/Signals.mo and examples/Thermal.
encapsulated package ThermoFluidStream "ThermoFluid Stream Lite: directed streams with local path inertance"
  import B = Base;
  import SI = Base.Units;
  import SB = Signals.Interfaces;
  import TI = Thermal.Interfaces;
  import SBS = Signals.Sources;
  import TC = Thermal.Components;

  package Units "Fluid units that Base.Units does not hold"
    type Pressure = Real(unit = "Pa");
    type AbsolutePressure = Real(unit = "Pa", min = 0);
    type SpecificEnthalpy = Real(unit = "J/kg");
    type SpecificInternalEnergy = Real(unit = "J/kg");
    type InternalEnergy = Real(unit = "J");
    type MassFlowRate = Real(unit = "kg/s");
    type MassFlowRateWithDerivative = B.RealWithDerivative(unit = "kg/s")
      "A mass flow rate that carries its acceleration upstream, for the declared tearing of splitters";
    type VolumeFlowRate = Real(unit = "m3/s");
    type Inertance = Real(unit = "m-1") "Inertance of a flow path: pressure per mass flow acceleration";
    type DynamicViscosity = Real(unit = "Pa.s");
    type GasConstant = Real(unit = "J/(kg.K)");
    type BulkModulus = Real(unit = "Pa");
    type CoefficientOfHeatTransfer = Real(unit = "W/(m2.K)");
  end Units;
end ThermoFluidStream;
