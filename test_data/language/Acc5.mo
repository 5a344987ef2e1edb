// inner/outer for a world of parameters, and a conditional component.
encapsulated package Acc5
  import B = Base;
  import SI = Base.Units;
  import Thermal.Components;

  model World "Parameters that every body in a system shares"
    parameter SI.Acceleration g = 9.81 "Gravity";
  end World;

  model Ball "Falls from rest"
    outer World world;
    parameter SI.Position h0 = 10 "Initial height";
    B.ContinuousState h(unit = "m", start = h0) "Height";
    B.ContinuousState v(unit = "m/s", start = 0) "Velocity";
  equation
    der(h) = v;
    der(v) = -world.g;
  end Ball;

  model Moon "A ball on the moon"
    inner World world(g = 1.62);
    Ball ball;
  end Moon;

  model MaybeHeated "A body with an optional heater"
    parameter Boolean withHeater = true "Include the heater";
    Components.HeatCapacitor body(C = 200, T0 = 293.15);
    Components.ThermalConductor conductor(G = 4);
    Components.FixedTemperature ambient(T = 293.15);
    Components.FixedHeatFlow heater(Q_flow = 50) if withHeater;
  equation
    connect(body.port, heater.port);
    connect(body.port, conductor.port_a);
    connect(conductor.port_b, ambient.port);
  end MaybeHeated;

end Acc5;
