// export: P.Drop
package P
  type ContinuousState = Real;
  model World
    parameter Real g = 9.81;
  end World;
  model Ball
    outer World world; // <- MX026
    ContinuousState h(start = 10);
    ContinuousState v(start = 0);
  equation
    der(h) = v;
    der(v) = -world.g;
  end Ball;
  model Drop
    Ball ball;
  end Drop;
end P;
