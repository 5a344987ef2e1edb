// class: W.Source
// A RealWithDerivative output carries its derivative: derived from its
// defining equation by the chain rule, after every equation was read.
package W
  type RealWithDerivative = Real;
  block Source
    parameter Real w = 2;
    output RealWithDerivative x;
  equation
    x = 3*sin(w*time);
  end Source;
end W;
