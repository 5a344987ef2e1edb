package P
  connector PortIn
    input Real T;
    flow Real Q_flow;
  end PortIn;
  model Node "A node of n ports whose flows balance: sum(ports.Q_flow) = 0 cannot determine n flows"
    parameter Integer n = 3;
    PortIn ports[n];
  equation
    sum(ports.Q_flow) = 0; // <- MC133
  end Node;
end P;
