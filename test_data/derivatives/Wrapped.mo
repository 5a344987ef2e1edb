// Carried derivatives through a wrapper: `Wrapper` determines its own
// RealWith2Derivatives output only by connecting it to a component's, so
// the derivatives come through that connection as well (no equation of the
// wrapper gives them); the receiver reads der(x) and der(der(x)).
package W3
  type RealWith2Derivatives = Real;
  block Source
    parameter Real w(unit = "1/s") = 2;
    output RealWith2Derivatives x;
  equation
    x = 3*sin(w*time);
  end Source;
  block Wrapper
    output RealWith2Derivatives x;
    Source s;
  equation
    connect(s.x, x);
  end Wrapper;
  block Acc
    input RealWith2Derivatives x;
    output Real a;
    output Real v;
  equation
    v = der(x);
    a = der(der(x));
  end Acc;
  model M
    Wrapper wrapped;
    Acc acc;
    output Real a;
    output Real v;
  equation
    connect(wrapped.x, acc.x);
    a = acc.a;
    v = acc.v;
  end M;
end W3;
