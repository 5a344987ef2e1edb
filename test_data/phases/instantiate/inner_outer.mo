// An `outer` world resolved to the `inner` one of the model: its parameter
// is laid out once, and every ball reads it (loaded after examples/Base.mo
// and examples/Thermal).
encapsulated package Worlds
  import B = Base;

  model World "Parameters every body shares"
    parameter Real g = 9.81 "Gravity";
  end World;

  model Ball "Falls from rest"
    outer World world;
    B.ContinuousState h(start = 10) "Height";
    B.ContinuousState v(start = 0) "Velocity";
  equation
    der(h) = v;
    der(v) = -world.g;
  end Ball;

  model Moon "Two balls on the moon"
    inner World world(g = 1.62);
    Ball ball;
    Ball other;
  end Moon;
end Worlds;
