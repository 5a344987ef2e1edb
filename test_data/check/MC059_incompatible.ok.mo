// export: P.M
package P
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Const
    parameter Real k = 1;
    RealOutput y;
  equation
    y = k;
  end Const;
  block Gain
    parameter Real k = 1;
    RealInput u;
    RealOutput y;
  equation
    y = k*u;
  end Gain;
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
    Fixed f2;
    Conductor c;
  equation
    connect(f.port, c.a);
    connect(c.b, f2.port);
  end M;
end P;
