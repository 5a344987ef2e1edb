within Electrical;
encapsulated package Sensors "Measurements that draw no current and drop no voltage"
  import Electrical.Interfaces;

  model PotentialSensor "Potential of a node"
    Interfaces.PinIn p "Measured pin";
    Interfaces.RealOutput phi "Potential of p, in V";
  equation
    p.i = 0;
    phi = p.v;
  end PotentialSensor;

  model VoltageSensor "Voltage between two nodes"
    Interfaces.PinIn p "Positive pin";
    Interfaces.PinIn n "Negative pin";
    Interfaces.RealOutput v "p.v - n.v, in V";
  equation
    p.i = 0;
    n.i = 0;
    v = p.v - n.v;
  end VoltageSensor;

  model CurrentSensor "Current through a branch: in series, a short circuit that measures"
    // In series it passes the potential of p on to n and the current that
    // leaves through n back to p, like a SeriesResistor with R = 0.
    Interfaces.PinIn p "Positive pin";
    Interfaces.PinOut n "Negative pin";
    Interfaces.RealOutput i "Current from p to n, in A";
  equation
    n.v = p.v;
    i = -n.i;
    p.i = i;
  end CurrentSensor;

end Sensors;
