// A connect between a component's output and another's input forms a
// connection set: the input is copied from the output.
package Wiring
  block Source
    output Real y;
  equation
    y = 1;
  end Source;
  block Sink
    input Real u;
    output Real v;
  equation
    v = 2*u;
  end Sink;
  block Chain
    output Real w;
    Source src;
    Sink snk;
  equation
    connect(src.y, snk.u);
    w = snk.v;
  end Chain;
end Wiring;
