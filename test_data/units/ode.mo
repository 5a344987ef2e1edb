// The seed paper's SimpleOde in compliant form: the state's unit is not
// declared; der(x) = 2*v + 1.0 infers it from the velocity (literals are
// dimensionless in products and take any unit in sums).
package Ode
  type ContinuousState = Real;
  type Velocity = Real(unit = "m/s");
  model SimpleOde
    input Velocity v;
    ContinuousState x(start = 0);
    output Real y;
  equation
    der(x) = 2*v + 1.0;
    y = x;
  end SimpleOde;
end Ode;
