// A plate of n x n capacitors (issue 60): each joined by a conductor to its
// right and to its lower neighbour, so an interior cell has four, and fed at
// cell [1, 1] from a fixed temperature through a conductor. The elements take
// model parameters (`each C = Cg`, `each G = Gg`).
package Grid
  model Grid "n x n capacitors fed at one corner"
    parameter Integer n = 10 "Rows and columns";
    parameter Real Cg(unit = "J/K") = 50;
    parameter Real Gg(unit = "W/K") = 2;
    Thermal.Components.FixedTemperature source(T = 400);
    Thermal.Components.ThermalConductor feed(G = 10);
    Thermal.Components.HeatCapacitor cap[n, n](each C = Cg);
    Thermal.Components.ThermalConductor right[n, n - 1](each G = Gg);
    Thermal.Components.ThermalConductor down[n - 1, n](each G = Gg);
  equation
    connect(source.port, feed.port_a);
    connect(feed.port_b, cap[1, 1].port);
    for i in 1:n loop
      for j in 1:n - 1 loop
        connect(cap[i, j].port, right[i, j].port_a);
        connect(right[i, j].port_b, cap[i, j + 1].port);
      end for;
    end for;
    for i in 1:n - 1 loop
      for j in 1:n loop
        connect(cap[i, j].port, down[i, j].port_a);
        connect(down[i, j].port_b, cap[i + 1, j].port);
      end for;
    end for;
  end Grid;
end Grid;
