// export: P.MaybeHeated
// set: withHeater=false
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
  model MaybeHeated
    parameter Boolean withHeater = true;
    Capacitor body;
    Source ambient(T = 293.15);
    Conductor conductor;
    Heater heater(Q = 50) if withHeater;
    output Real power;
  equation
    connect(body.port, heater.port);
    connect(body.port, conductor.port_a);
    connect(conductor.port_b, ambient.port);
    power = conductor.Q_flow;
  end MaybeHeated;
end P;
