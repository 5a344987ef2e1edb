// Boolean and Integer variables over examples/Thermal: a fan that cools a
// heated body in stages, switched by state events.
encapsulated package AccDiscrete
  import SI = Base.Units;
  import Thermal.Interfaces;
  import Thermal.Components;

  model Fan "Cools the body it is attached to, in stages set by its temperature"
    parameter SI.HeatFlowRate P = 200 "Cooling power per stage";
    Interfaces.HeatPortIn port;
    Boolean hot = port.T > 300 "Warmer than 300 K";
    Integer stage = if port.T > 310 then 2 elseif hot then 1 else 0 "Fan stage";
    Boolean full "The fan runs at full speed";
    Boolean idle = not hot "The fan stands still";
    SI.HeatFlowRate Q "Heat removed from the body";
  equation
    full = stage == 2 and hot;
    Q = if hot then stage*P else 0;
    port.Q_flow = Q;
  end Fan;

  model CooledBody "A heated body that loses heat to its surroundings and to a fan"
    Components.HeatCapacitor body(C = 1000, T0 = 290);
    Components.FixedHeatFlow heater(Q_flow = 1000);
    Components.ThermalConductor loss(G = 10);
    Components.FixedTemperature ambient(T = 280);
    Fan fan(P = 200);
  equation
    connect(heater.port, body.port);
    connect(body.port, loss.port_a);
    connect(loss.port_b, ambient.port);
    connect(body.port, fan.port);
  end CooledBody;

end AccDiscrete;
