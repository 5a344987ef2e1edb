// An enumeration parameter, an initial equation for a state, sum and size.
encapsulated package Acc6
  import B = Base;
  import SI = Base.Units;

  type Mode = enumeration(Off "No heating", Heat "Rated power", Boost "Twice the rated power");

  model Room "A room heated according to a mode, started at a set temperature"
    parameter Mode mode = Mode.Heat "Heating mode";
    parameter SI.HeatFlowRate P = 150 "Rated heater power";
    parameter SI.Temperature T_set = 300 "Initial temperature";
    parameter SI.ThermalConductance G[3] = {2, 3, 5} "Losses through three walls";
    parameter Integer walls = size(G, 1) "Number of walls";
    SI.HeatFlowRate heat "Heater power";
    B.ContinuousState T(unit = "K") "Room temperature";
  initial equation
    T = T_set;
  equation
    heat = if mode == Mode.Off then 0 elseif mode == Mode.Heat then P else 2*P;
    der(T) = (heat - sum(G)*(T - 290))/1000;
  end Room;

end Acc6;
