package P
  record State
    Real p(unit = "Pa");
    Real h(unit = "J/kg");
  end State;
  function setState
    input Real p(unit = "Pa");
    input Real h(unit = "J/kg");
    output State state;
  algorithm
    state := State(p = p, h = h);
  end setState;
  function enthalpy
    input State state;
    output Real h(unit = "J/kg");
  algorithm
    h := state.h;
  end enthalpy;
  block Probe
    input Real h(unit = "J/kg");
    output Real y(unit = "J/kg");
  equation
    y = enthalpy(setState(1e5, h));
  end Probe;
end P;
