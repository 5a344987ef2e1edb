// The consistent twin of the circuit (figure 4): two sources, whose
// outputs are inferred Ohm and S from the inputs they feed.
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

  model ConsistentCircuit
    Ramp clock1(offset = 1, slope = 0.5);
    Ramp clock2(offset = 1, slope = 0.25);
    CurrentSource source(I = 2);
    VariableResistor R1;
    VariableConductor G1;
  equation
    connect(clock1.y, R1.R);
    connect(clock2.y, G1.G);
    connect(source.i, R1.i);
    connect(R1.v, G1.v);
  end ConsistentCircuit;
end Circuits;
