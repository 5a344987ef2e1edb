// Arrays of connectors over examples/Thermal: a body with three heat ports
// (one temperature, the heat of every port summed), and a plate of n cells
// with one port each (the size a parameter), connected element by element.
encapsulated package AccConnArrays
  import B = Base;
  import SI = Base.Units;
  import Thermal.Interfaces;
  import Thermal.Components;

  model Hub "A body with one temperature and three heat ports"
    parameter SI.HeatCapacity C = 100 "Heat capacity";
    parameter SI.Temperature T0 = 400 "Initial temperature";
    Interfaces.HeatPortOut ports[3] "One port per branch";
    B.ContinuousState T(unit = "K", start = T0) "Temperature of the body";
  equation
    for i in 1:3 loop
      ports[i].T = T;
    end for;
    der(T) = sum(ports.Q_flow)/C;
  end Hub;

  model Plate "n cells side by side, each with its own port"
    parameter Integer n = 2 "Number of cells";
    parameter SI.HeatCapacity C = 10 "Heat capacity of one cell";
    parameter SI.Temperature T0 = 300 "Initial temperature of every cell";
    Interfaces.HeatPortOut ports[n] "Port of each cell";
    B.ContinuousState T[n](each unit = "K", each start = T0) "Cell temperatures";
  equation
    for i in 1:n loop
      ports[i].T = T[i];
    end for;
    for i in 1:n loop
      der(T[i]) = ports[i].Q_flow/C;
    end for;
  end Plate;

  model Star "A hub that heats the three cells of a plate, one link each"
    Hub hub;
    Plate plate(n = 3, C = 20);
    Components.ThermalConductor link[3](G = {1, 2, 3});
  equation
    for i in 1:3 loop
      connect(hub.ports[i], link[i].port_a);
      connect(link[i].port_b, plate.ports[i]);
    end for;
  end Star;

  model Pair "A hub connected by literal indices: a body, the surroundings, nothing"
    Hub hub(T0 = 350);
    Components.ThermalConductor a(G = 2);
    Components.HeatCapacitor body(C = 40, T0 = 300);
    Components.ThermalConductor b(G = 0.5);
    Components.FixedTemperature env(T = 280);
    Components.FixedHeatFlow none(Q_flow = 0);
  equation
    connect(hub.ports[1], a.port_a);
    connect(a.port_b, body.port);
    connect(hub.ports[2], b.port_a);
    connect(env.port, b.port_b);
    connect(hub.ports[3], none.port);
  end Pair;

end AccConnArrays;
