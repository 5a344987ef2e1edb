// export: P.Chain
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
    PortOut port;
  equation
    port.T = T;
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
  model Chain
    parameter Integer n = 3;
    Source source;
    Conductor link[n](each G = 2);
    Capacitor cap[n](C = {40, 50, 60});
  equation
    connect(source.port, link[1].port_a);
    for i in 1:n loop
      connect(link[i].port_b, cap[i].port);
    end for;
    for i in 1:n - 1 loop
      connect(cap[i].port, link[i + 1].port_a);
    end for;
  end Chain;
  model ChainOfConstants "The refused modifier with a constant: known at export"
    parameter Integer n = 3;
    constant Real Ctotal = 150;
    Source source;
    Conductor link[n](each G = 2);
    Capacitor cap[n](each C = Ctotal/n);
  equation
    connect(source.port, link[1].port_a);
    for i in 1:n loop
      connect(link[i].port_b, cap[i].port);
    end for;
    for i in 1:n - 1 loop
      connect(cap[i].port, link[i + 1].port_a);
    end for;
  end ChainOfConstants;
end P;
