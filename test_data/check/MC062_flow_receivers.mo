// export: P.M
// A set of PortIn only (M) is MC060; its flow, which no side receives,
// is the same cause and not reported again as MC062 (found 0).
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
    Conductor c2;
    Fixed f1;
  equation
    connect(c1.b, c2.a); // <- MC060
    connect(f.port, c1.a);
    connect(f1.port, c2.b);
  end M;
  // Two sides that determine T: both would receive the flow Q.
  model Twice
    Fixed f;
    Fixed f1;
    Conductor c;
  equation
    connect(f.port, f1.port); // <- MC061 MC062
    connect(f.port, c.a);
    connect(f1.port, c.b);
  end Twice;
end P;
