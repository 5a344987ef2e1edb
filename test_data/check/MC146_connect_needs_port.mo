package P
  connector HeatPortIn
    input Real T;
    flow Real Q_flow;
  end HeatPortIn;
  model Load
    parameter Real G = 2;
    HeatPortIn a;
  equation
    a.Q_flow = G*(a.T - 300);
  end Load;
  model Wrapper
    parameter Boolean usePort = true;
    HeatPortIn port if usePort;
    Load load;
  equation
    connect(port, load.a); // <- MC146
  end Wrapper;
end P;
