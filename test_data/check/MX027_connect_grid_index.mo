// export: P.Plate
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
    parameter Integer n = 2;
    parameter Integer m = 3;
    Capacitor cap[n, m];
    Conductor right[n, m - 1];
  equation
    for i in 1:n loop
      for j in 1:m - 1 loop
        connect(cap[i, j].port, right[i, j].port_a);
        connect(right[i, j].port_b, cap[i + 1, j + 1].port); // <- MX027
      end for;
    end for;
  end Plate;
end P;
