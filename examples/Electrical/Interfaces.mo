within Electrical;
encapsulated package Interfaces "Pins with assumed causality and signal connectors"
  import SI = Base.Units;

  // Both pins carry a potential v and a current i. As everywhere in
  // Modelica, i is the current flowing into the component that owns the pin.
  // In connect(a, b) one side determines v and every other side determines
  // its i; the side that determines v learns the sum of the others' currents
  // (Kirchhoff's current law: the currents into a node sum to zero).

  connector PinOut "Pin whose owner determines the potential of its node"
    output SI.Voltage v "Potential of the pin, determined by the owner";
    flow SI.Current i "Current into the owner through this pin; known to the owner";
  end PinOut;

  connector PinIn "Pin whose owner receives the potential and determines the current"
    input SI.Voltage v "Potential of the pin, known to the owner";
    flow SI.Current i "Current into the owner through this pin; determined by the owner";
  end PinIn;

  // Signal connectors of the same shape as Signals.Interfaces, so signal
  // blocks of that library drive sources and read sensors.
  connector RealInput = input Real;
  connector RealOutput = output Real;

end Interfaces;
