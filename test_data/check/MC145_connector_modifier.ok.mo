package P
  connector HeatPortIn
    input Real T;
    flow Real Q_flow;
  end HeatPortIn;
  model M
    parameter Boolean usePort = true;
    parameter Real Q0 = 1;
    Real Q;
    HeatPortIn port(Q_flow(start = Q0)) if usePort;
  equation
    if usePort then
      port.Q_flow = 2*(port.T - 300);
      Q = port.Q_flow;
    else
      Q = 0;
    end if;
  end M;
end P;
