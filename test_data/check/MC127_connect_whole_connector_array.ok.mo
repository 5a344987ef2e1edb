// export: P.Two
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
  model Hub
    parameter Integer n = 2;
    parameter Real C = 10;
    PortOut ports[n];
    ContinuousState T(start = 400);
  equation
    for i in 1:n loop
      ports[i].T = T;
    end for;
    der(T) = (ports[1].Q_flow + ports[2].Q_flow)/C;
  end Hub;
  model Sink
    parameter Real G = 2;
    PortIn port;
  equation
    port.Q_flow = G*(port.T - 300);
  end Sink;
  model Two
    Hub hub;
    Sink a[2];
  equation
    for i in 1:2 loop
      connect(hub.ports[i], a[i].port);
    end for;
  end Two;
end P;
