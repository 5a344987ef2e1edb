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
  model Plate
    parameter Integer n = 2;
    parameter Real C = 10;
    PortOut ports[n];
    ContinuousState T[n](each start = 300);
  equation
    for i in 1:n loop
      ports[i].T = T[i];
      der(T[i]) = ports[i].Q_flow/C;
    end for;
  end Plate;
  model Source
    PortIn port;
  equation
    port.Q_flow = -1;
  end Source;
  model Heated
    Plate plate(n = 3);
    Source first;
    Source others[2];
  equation
    connect(first.port, plate.ports[1]);
    connect(others[1].port, plate.ports[2]);
    connect(others[end].port, plate.ports[end]); // <- MC036
  end Heated;
end P;
