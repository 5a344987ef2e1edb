// A RealWith2Derivatives signal: the source determines x = 3 sin(w t), its
// first and second derivatives are derived by the chain rule and travel
// with x through the connection; the receiver reads der(x) and der(der(x)).
package W2
  type RealWith2Derivatives = Real;
  block Source
    parameter Real w(unit = "1/s") = 2;
    output RealWith2Derivatives x;
  equation
    x = 3*sin(w*time);
  end Source;
  block Acc
    input RealWith2Derivatives x;
    output Real a;
    output Real v;
  equation
    v = der(x);
    a = der(der(x));
  end Acc;
  model M
    Source s;
    Acc acc;
    output Real a;
    output Real v;
  equation
    connect(s.x, acc.x);
    a = acc.a;
    v = acc.v;
  end M;
end W2;
