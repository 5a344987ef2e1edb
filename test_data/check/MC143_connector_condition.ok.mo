package P
  connector HeatPortIn
    input Real T;
    flow Real Q_flow;
  end HeatPortIn;
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
end P;
