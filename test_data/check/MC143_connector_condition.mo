package P
  connector HeatPortIn
    input Real T;
    flow Real Q_flow;
  end HeatPortIn;
  model M
    Real x;
    Real Q;
    HeatPortIn port if x > 0.5; // <- MC143
  equation
    x = time;
    if x > 0.5 then
      port.Q_flow = 2*(port.T - 300);
      Q = port.Q_flow;
    else
      Q = 0;
    end if;
  end M;
end P;
