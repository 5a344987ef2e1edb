// A top-level physical connector: the model's own port carries the
// temperature in (an FMI input, assumed causality of HeatPortIn) and the heat
// flow rate out (an FMI output, the flow's inverse causality). With the port
// held at Tp the body follows T = Tp + (T0 - Tp) exp(-G t / C) and the port
// returns Q_flow = G (Tp - T).
within;
package Wall
  model HeatedWall "A capacitor behind a conductor, driven through a top-level port"
    Thermal.Interfaces.HeatPortIn port "Outside surface: temperature given, heat flow returned";
    Thermal.Components.ThermalConductor wall(G = 2);
    Thermal.Components.HeatCapacitor body(C = 10, T0 = 300);
  equation
    connect(port, wall.port_a);
    connect(body.port, wall.port_b);
  end HeatedWall;
end Wall;
