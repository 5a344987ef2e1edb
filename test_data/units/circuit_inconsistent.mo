// The seed paper's inconsistent circuit (figure 3): one signal source
// feeds the resistance input of a variable resistor and the conductance
// input of a variable conductor, so its output would be both Ohm and S.
// The fault is the connect equation where the two inferred units meet.
package Circuits
  block Ramp "Polymorphic source: the unit of y is a type variable"
    parameter Real offset = 0;
    parameter Real slope = 1;
    output Real y;
  equation
    y = offset + slope*time;
  end Ramp;

  block CurrentSource
    parameter Real I(unit = "A") = 1;
    output Real i(unit = "A");
  equation
    i = I;
  end CurrentSource;

  block VariableResistor
    input Real R(unit = "Ohm");
    input Real i(unit = "A");
    output Real v(unit = "V");
  equation
    v = R*i;
  end VariableResistor;

  block VariableConductor
    input Real G(unit = "S");
    input Real v(unit = "V");
    output Real i(unit = "A");
  equation
    i = G*v;
  end VariableConductor;

  model InconsistentCircuit
    Ramp clock(offset = 1, slope = 0.5);
    CurrentSource source(I = 2);
    VariableResistor R1;
    VariableConductor G1;
  equation
    connect(clock.y, R1.R);
    connect(clock.y, G1.G);
    connect(source.i, R1.i);
    connect(R1.v, G1.v);
  end InconsistentCircuit;
end Circuits;
