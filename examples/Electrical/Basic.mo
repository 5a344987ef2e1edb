within Electrical;
encapsulated package Basic "Ground, resistors, capacitor, inductor, node and electromotive force"
  import B = Base;
  import SI = Base.Units;
  import Electrical.Interfaces;
  import Planar.Rotational;

  // Which element determines what follows from its physics. A capacitor's
  // voltage is a state, so it determines the potential of one pin from the
  // other's; an inductor's current is a state, so it determines the current
  // of both pins from their potentials. A resistor takes whichever form its
  // place in the circuit leaves open: between two nodes whose potentials are
  // determined elsewhere it determines its current (Resistor); in series
  // with an element that determines the current (an inductor, a current
  // source) it determines the potential of the node after it
  // (SeriesResistor).

  model Ground "Zero potential"
    Interfaces.PinOut p "Ground pin";
  equation
    p.v = 0;
  end Ground;

  model Resistor "Ideal resistor between two nodes whose potentials are determined elsewhere: it determines its current"
    parameter SI.Resistance R = 1 "Resistance";
    Interfaces.PinIn p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    SI.Voltage v "Voltage drop p.v - n.v";
    SI.Current i "Current from p to n";
  equation
    v = p.v - n.v;
    i = v/R;
    p.i = i;
    n.i = -i;
  end Resistor;

  model SeriesResistor "Ideal resistor in series with an element that determines the current: it determines the potential of n"
    // The current from p to n is -n.i (it leaves through n), so the drop
    // p.v - n.v is -R*n.i.
    parameter SI.Resistance R = 1 "Resistance";
    Interfaces.PinIn p "Positive pin; its potential is determined elsewhere";
    Interfaces.PinOut n "Negative pin; the current leaving through it is determined by what it is connected to";
  equation
    n.v = p.v + R*n.i;
    p.i = -n.i;
  end SeriesResistor;

  model Capacitor "Ideal capacitor: its voltage is a state, so it determines the potential of p from that of n"
    // The current from p to n is p.i. The initial voltage is v's start
    // (capacitor(v(start = 1)), or --set capacitor.v=1 at export).
    parameter SI.Capacitance C = 1 "Capacitance";
    Interfaces.PinOut p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    B.ContinuousState v(unit = "V", start = 0) "Voltage p.v - n.v";
  equation
    p.v = n.v + v;
    n.i = -p.i;
    der(v) = p.i/C;
  end Capacitor;

  model Inductor "Ideal inductor: its current is a state, so it determines the current of both pins"
    // The initial current is i's start (inductor(i(start = 1)), or
    // --set inductor.i=1 at export).
    parameter SI.Inductance L = 1 "Inductance";
    Interfaces.PinIn p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    B.ContinuousState i(unit = "A", start = 0) "Current from p to n";
  equation
    p.i = i;
    n.i = -i;
    der(i) = (p.v - n.v)/L;
  end Inductor;

  model Node "A junction without capacitance: chooses its potential so that the currents into it sum to zero"
    // Where no element determines a node's potential (two resistors in
    // series between two sources), the node declares the tearing: its
    // potential is the balance of a LinearResponse whose residual is the
    // current the connected elements draw. The currents must be affine in
    // the potential (resistors, sources, inductors are).
    Interfaces.PinOut p "The node: connect every element that meets here";
    SI.Voltage v "Potential of the node";
  protected
    B.LinearResponse kcl "Chooses v so that the currents into the node sum to zero";
  equation
    v = kcl.balance;
    p.v = v;
    kcl.residual = p.i;
  end Node;

  model EMF "Ideal electromechanical converter: the voltage k*w from the shaft's speed, the torque k*i on the shaft from the current"
    parameter Real k(unit = "N.m/A") = 1 "Transformation coefficient (torque per current, voltage per speed)";
    Interfaces.PinOut p "Positive pin; the armature current enters here";
    Interfaces.PinIn n "Negative pin";
    Rotational.FlangeTo flange "Shaft: receives the rotation, answers with the torque";
    SI.AngularVelocity w "Speed of the shaft";
    SI.Voltage v "Induced voltage p.v - n.v";
    SI.Current i "Current from p to n";
    SI.Torque tau "Torque the converter exerts on the shaft";
  equation
    w = flange.w;
    v = k*w;
    p.v = n.v + v;
    i = p.i;
    n.i = -i;
    tau = k*i;
    flange.tau = -tau;
  end EMF;

end Basic;
