package P
  type ContinuousState = Real;
  connector PortOut
    output Real T;
    flow Real Q_flow;
  end PortOut;
  model Node "A capacity of n ports: the sum of their (known) flows heats it"
    parameter Integer n = 3;
    parameter Real C = 10;
    PortOut ports[n];
    ContinuousState T(start = 300);
  equation
    for i in 1:n loop
      ports[i].T = T;
    end for;
    der(T) = sum(ports.Q_flow)/C;
  end Node;
end P;
