// export: P.Test
package P
  type RealWithDerivative = Real;
  connector FlangeOn
    output Real x;
    RealWithDerivative v;
    flow Real f;
  end FlangeOn;
  connector FlangeTo
    input Real x;
    RealWithDerivative v;
    flow Real f;
  end FlangeTo;
  model Body
    parameter Real m = 1;
    FlangeTo flange;
  equation
    flange.f = m*der(flange.v);
  end Body;
  model Shaker "Moves its flange at constant speed"
    FlangeOn flange;
  equation
    flange.x = 0.5*time;
    flange.v = 0.5;
  end Shaker;
  model Test
    Shaker shaker;
    Body body;
  equation
    connect(shaker.flange, body.flange);
  end Test;
end P;
