// An `outer` world of parameters resolved to the `inner` one of the model
// (loaded after examples/Base.mo and examples/Thermal).
encapsulated package InnerOuter
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

  model Weight "A ball whose own parameter is bound to the world's"
    outer World world;
    parameter Real a = world.g "Its acceleration";
    B.ContinuousState v(start = 0) "Velocity";
  equation
    der(v) = -a;
  end Weight;

  model Weights "Bound to the world, and one bound to a number of its own"
    inner World world(g = 1.62);
    Weight w[3];
    Weight heavy(a = 2);
  end Weights;
end InnerOuter;
