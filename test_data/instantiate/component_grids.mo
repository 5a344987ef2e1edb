// Arrays of components of two dimensions: instances row-major, a matrix
// modifier split by element, `each` for all elements.
encapsulated package ComponentGrids
  import Thermal.Components;

  model Grid "n x m capacitors, each of its own capacity, no connections needed"
    parameter Integer n = 2;
    parameter Integer m = 3;
    Components.FixedHeatFlow heater[n, m](each Q_flow = 1);
    Components.HeatCapacitor cap[n, m](each T0 = 300);
  equation
    for i in 1:n loop
      for j in 1:m loop
        connect(heater[i, j].port, cap[i, j].port);
      end for;
    end for;
  end Grid;

  model Fixed "a 2 x 3 array whose capacities are one matrix"
    Components.FixedHeatFlow heater[2, 3](each Q_flow = 1);
    Components.HeatCapacitor cap[2, 3](C = [10, 20, 30; 40, 50, 60], each T0 = 300);
  equation
    for i in 1:2 loop
      for j in 1:3 loop
        connect(heater[i, j].port, cap[i, j].port);
      end for;
    end for;
  end Fixed;

end ComponentGrids;
