// Controlled energy flows: energy budgets of electrified systems (vehicles,
// aircraft, houses) as controlled power flows, not as the result of
// potentials. A consumer's request travels upstream, what the suppliers can
// deliver travels downstream, and every class decides locally what it
// delivers (docs/energy-flows.md). The sub-packages live in their own files
// and load in package.order order: Interfaces, Components, Examples.
encapsulated package EnergyFlows "Controlled power flows with energy meters"
  import B = Base;
  import SI = Base.Units;
  import S = Signals;
  import T = Thermal;
end EnergyFlows;
