// A state event: a relation on a state inside an if-expression becomes an
// event indicator, its branch is frozen between events, and the importer
// locates the crossing. x rises at unit rate from 0 and, once it reaches
// 0.5 (at t = 0.5), decays: x = 0.5*exp(-(t - 0.5)) afterwards.
encapsulated package Switch
  import B = Base;

  model RiseThenDecay "Rises until x = 0.5, then decays exponentially"
    parameter Real threshold = 0.5 "Level at which the switch happens";
    parameter Real speed = 1 "Rate of rise";
    parameter Real k(unit = "1/s") = 1 "Decay rate";
    B.ContinuousState x(start = 0) "Switched state";
    Real rate "Rate of change of x";
  equation
    rate = if x < threshold then speed else -k*x;
    der(x) = rate;
  end RiseThenDecay;
end Switch;
