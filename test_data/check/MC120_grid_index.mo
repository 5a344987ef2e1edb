package P
  type ContinuousState = Real;
  connector PortOut
    output Real T;
    flow Real Q_flow;
  end PortOut;
  connector PortIn
    input Real T;
    flow Real Q_flow;
  end PortIn;
  model Capacitor
    parameter Real C = 50;
    PortOut port;
    ContinuousState T(start = 300);
  equation
    port.T = T;
    der(T) = port.Q_flow/C;
  end Capacitor;
  model Conductor
    parameter Real G = 2;
    PortIn port_a;
    PortIn port_b;
    Real Q_flow;
  equation
    Q_flow = G*(port_a.T - port_b.T);
    port_a.Q_flow = Q_flow;
    port_b.Q_flow = -Q_flow;
  end Conductor;
  model Plate
    Capacitor cap[1, 2];
    Conductor link;
  equation
    connect(cap[1, 1].port, link.port_a);
    connect(link.port_b, cap[2].port); // <- MC120
  end Plate;
end P;
