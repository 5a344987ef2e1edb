// export: P.Moon
package P
  type ContinuousState = Real;
  model World
    parameter Real g = 9.81;
  end World;
  model Ball
    outer World world;
    ContinuousState h(start = 10);
    ContinuousState v(start = 0);
  equation
    der(h) = v;
    der(v) = -world.g;
  end Ball;
  model Moon
    inner World world(g = 1.62);
    Ball ball;
  end Moon;
end P;
