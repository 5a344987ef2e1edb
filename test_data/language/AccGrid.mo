// Two-dimensional arrays of components, over examples/Thermal: a plate of
// n x m capacitors, each joined by a conductor to its right and to its lower
// neighbour, heated at one corner and cooled through the opposite one.
encapsulated package AccGrid
  import Thermal.Components;

  model Plate "n x m capacitors heated at cell [1,1], cooled at cell [n,m]"
    parameter Integer n = 3 "Rows";
    parameter Integer m = 4 "Columns";
    Components.FixedHeatFlow heater(Q_flow = 100);
    Components.FixedTemperature ambient(T = 300);
    Components.ThermalConductor loss(G = 1.5);
    Components.HeatCapacitor cap[n, m](each C = 50, each T0 = 300);
    Components.ThermalConductor right[n, m - 1](each G = 2);
    Components.ThermalConductor down[n - 1, m](each G = 3);
  equation
    connect(heater.port, cap[1, 1].port);
    connect(ambient.port, loss.port_a);
    connect(loss.port_b, cap[n, m].port);
    for i in 1:n loop
      for j in 1:m - 1 loop
        connect(cap[i, j].port, right[i, j].port_a);
        connect(right[i, j].port_b, cap[i, j + 1].port);
      end for;
    end for;
    for i in 1:n - 1 loop
      for j in 1:m loop
        connect(cap[i, j].port, down[i, j].port_a);
        connect(down[i, j].port_b, cap[i + 1, j].port);
      end for;
    end for;
  end Plate;

end AccGrid;
