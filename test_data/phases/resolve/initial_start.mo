// An initial equation that fixes a state becomes the state's start value.
package Init
  type ContinuousState = Real;
  block Lag
    parameter Real T = 0.5;
    parameter Real x0 = 1;
    input Real u;
    output Real y;
    ContinuousState x;
  initial equation
    x = x0;
  equation
    der(x) = (u - x)/T;
    y = x;
  end Lag;
end Init;
