// export: P.M
package P
  connector PortOut
    output Real T;
    flow Real Q;
  end PortOut;
  connector PortIn
    input Real T;
    flow Real Q;
  end PortIn;
  model Fixed
    parameter Real T0 = 300;
    PortOut port;
  equation
    port.T = T0;
  end Fixed;
  model Conductor
    parameter Real G = 1;
    PortIn a;
    PortIn b;
  equation
    a.Q = G*(a.T - b.T);
    b.Q = -a.Q;
  end Conductor;
  model M
    Fixed f;
    Conductor c1;
    Fixed f1;
  equation
    connect(f.port, c1.a);
    connect(f1.port, c1.b);
  end M;
end P;
