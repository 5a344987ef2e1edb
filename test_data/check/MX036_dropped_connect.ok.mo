// export: P.System
// set: heated=false
package P
  connector HeatPortIn
    input Real T;
    flow Real Q_flow;
  end HeatPortIn;
  connector HeatPortOut
    output Real T;
    flow Real Q_flow;
  end HeatPortOut;
  model Wall
    parameter Real T = 500;
    HeatPortOut port;
  equation
    port.T = T;
  end Wall;
  model M
    parameter Boolean usePort = true;
    Real Q;
    HeatPortIn port if usePort;
  equation
    if usePort then
      port.Q_flow = 2*(port.T - 300);
      Q = port.Q_flow;
    else
      Q = 0;
    end if;
  end M;
  model System
    parameter Boolean heated = true;
    Wall wall if heated;
    M m(usePort = heated);
  equation
    connect(wall.port, m.port);
  end System;
end P;
