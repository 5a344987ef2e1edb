within Electrical;
encapsulated package Sources "Ideal voltage and current sources"
  import SI = Base.Units;
  import Electrical.Interfaces;

  // A voltage source determines the potential of p from that of n; a current
  // source determines the current of both pins from nothing. In each, i is
  // the current from p to n through the source, so a source that delivers
  // power has v*i < 0, as in Modelica.

  model ConstantVoltage "Constant voltage V = p.v - n.v"
    parameter SI.Voltage V = 1 "Voltage";
    Interfaces.PinOut p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    SI.Current i "Current from p to n through the source";
  equation
    p.v = n.v + V;
    i = p.i;
    n.i = -i;
  end ConstantVoltage;

  model StepVoltage "Voltage that jumps from offset to offset + V at startTime"
    parameter SI.Voltage V = 1 "Height of the step";
    parameter SI.Voltage offset = 0 "Voltage before the step";
    parameter SI.Time startTime = 0 "Time of the step";
    Interfaces.PinOut p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    SI.Voltage v "Voltage p.v - n.v";
    SI.Current i "Current from p to n through the source";
  equation
    v = offset + (if time < startTime then 0 else V);
    p.v = n.v + v;
    i = p.i;
    n.i = -i;
  end StepVoltage;

  model SignalVoltage "Voltage given by a signal"
    Interfaces.RealInput v "Voltage p.v - n.v, in V";
    Interfaces.PinOut p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    SI.Current i "Current from p to n through the source";
  equation
    p.v = n.v + v;
    i = p.i;
    n.i = -i;
  end SignalVoltage;

  model ConstantCurrent "Constant current I from p to n through the source"
    parameter SI.Current I = 1 "Current";
    Interfaces.PinIn p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    SI.Voltage v "Voltage p.v - n.v";
  equation
    p.i = I;
    n.i = -I;
    v = p.v - n.v;
  end ConstantCurrent;

  model StepCurrent "Current that jumps from offset to offset + I at startTime"
    parameter SI.Current I = 1 "Height of the step";
    parameter SI.Current offset = 0 "Current before the step";
    parameter SI.Time startTime = 0 "Time of the step";
    Interfaces.PinIn p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    SI.Current i "Current from p to n through the source";
    SI.Voltage v "Voltage p.v - n.v";
  equation
    i = offset + (if time < startTime then 0 else I);
    p.i = i;
    n.i = -i;
    v = p.v - n.v;
  end StepCurrent;

  model SignalCurrent "Current given by a signal"
    Interfaces.RealInput i "Current from p to n through the source, in A";
    Interfaces.PinIn p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    SI.Voltage v "Voltage p.v - n.v";
  equation
    p.i = i;
    n.i = -i;
    v = p.v - n.v;
  end SignalCurrent;

end Sources;
