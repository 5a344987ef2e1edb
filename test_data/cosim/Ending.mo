// A right-hand side that exists only up to t = 1: der(x) = sqrt(1 - time)
// is not a real number after it. A Co-Simulation step across t = 1 cannot
// be completed: fmi2DoStep must stop at (just before) t = 1 with
// fmi2Discard and a message, and report how far it got.
encapsulated package Ending
  import B = Base;

  model SquareRoot "der(x) = sqrt(1 - time) from x = 0"
    B.ContinuousState x(start = 0) "Defined up to t = 1";
  equation
    der(x) = sqrt(1 - time);
  end SquareRoot;
end Ending;
