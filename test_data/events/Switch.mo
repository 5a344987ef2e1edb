// A state event: a relation on a state inside an if-expression becomes an
// event indicator, its branch is frozen between events, and the importer
// locates the crossing. `clock` is a state that grows like time, so the
// switch is a state event (not a time event) at t = 0.5; x rises at unit
// rate until then and decays afterwards: x = t, then 0.5*exp(-(t - 0.5)).
encapsulated package Switch
  import B = Base;

  model RiseThenDecay "Rises until the clock state reaches 0.5, then decays"
    parameter Real switchTime(unit = "s") = 0.5 "Clock value at which x switches";
    parameter Real speed = 1 "Rate of rise";
    parameter Real k(unit = "1/s") = 1 "Decay rate";
    B.ContinuousState clock(start = 0, unit = "s") "Grows like time";
    B.ContinuousState x(start = 0) "Switched state";
    Real rate "Rate of change of x";
  equation
    der(clock) = 1;
    rate = if clock < switchTime then speed else -k*x;
    der(x) = rate;
  end RiseThenDecay;
end Switch;
