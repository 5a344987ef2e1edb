// A class used by two models, a faulty class and a class below the faulty
// one: the database compiles the shared class once, and does not look
// below a class that does not compile.
package Base
  type ContinuousState = Real;
end Base;
package P
  block Gain
    parameter Real k = 2;
    input Real u;
    output Real y;
  equation
    y = k*u;
  end Gain;
  model Tank
    parameter Real tau = 1;
    Base.ContinuousState x(start = 1);
    Gain g(k = 3);
    output Real y;
  equation
    g.u = x;
    der(x) = -x/tau;
    y = g.y;
  end Tank;
  model Twin
    Gain first;
    Gain second;
    output Real y;
  equation
    first.u = 1;
    second.u = first.y;
    y = second.y;
  end Twin;
  block Inner
    output Real y;
  equation
    y = 1;
  end Inner;
  model Faulty
    Inner part;
    Real z;
    output Real y;
  equation
    z*z = 2;
    y = part.y + z;
  end Faulty;
  model Top
    Tank tank;
    Faulty faulty;
  end Top;
end P;
