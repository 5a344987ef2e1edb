// A polymorphic gain (k has unit "1") passes the unit of its input to its
// output; three gains in a chain carry N from a force source to an
// integrator whose state is then inferred N.s. The second model feeds the
// same chain into a length input: inconsistent at that connect, not inside
// the gains.
package Chain
  type ContinuousState = Real;

  block Gain
    parameter Real k(unit = "1") = 1;
    input Real u;
    output Real y;
  equation
    y = k*u;
  end Gain;

  block Force
    parameter Real F(unit = "N") = 1;
    output Real y;
  equation
    y = F;
  end Force;

  block Integrator
    input Real u;
    output Real y;
    ContinuousState x(start = 0);
  equation
    der(x) = u;
    y = x;
  end Integrator;

  block LengthSink
    input Real s(unit = "m");
    output Real y(unit = "m");
  equation
    y = s;
  end LengthSink;

  model GainChain
    Force force(F = 3);
    Gain g1(k = 2);
    Gain g2(k = 0.5);
    Gain g3(k = -1);
    Integrator impulse;
  equation
    connect(force.y, g1.u);
    connect(g1.y, g2.u);
    connect(g2.y, g3.u);
    connect(g3.y, impulse.u);
  end GainChain;

  model GainChainIntoLength
    Force force(F = 3);
    Gain g1(k = 2);
    Gain g2(k = 0.5);
    LengthSink sink;
  equation
    connect(force.y, g1.u);
    connect(g1.y, g2.u);
    connect(g2.y, sink.s);
  end GainChainIntoLength;
end Chain;
