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
  model Source
    parameter Real T = 400;
    PortIn port;
  equation
    port.Q_flow = 0;
  end Source;
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
  model Heater
    parameter Real Q = 50;
    PortIn port;
  equation
    port.Q_flow = -Q;
  end Heater;
  model Body
    parameter Real C = 1;
    ContinuousState T(start = 1);
  equation
    der(T) = -T/C;
  end Body;
  model Chain
    parameter Integer k = 3;
    Body b[k];
  equation
  end Chain;
end P;
