// The layout of Real variables in `R`: each instance's own variables one
// after another (an array variable element by element), the derivatives of
// its states after them, then its components (loaded after examples/Base.mo
// and examples/Thermal).
encapsulated package Layout
  import Thermal.Components;

  model Heating "A rod of three volumes heated through a conductor"
    parameter Real Q = 10 "Heat flow rate at the far end";
    Components.FixedTemperature source(T = 400);
    Components.ThermalConductor conductor(G = 1);
    Components.Rod rod(n = 3, T0 = 300);
    Components.FixedHeatFlow far(Q_flow = Q);
  equation
    connect(source.port, conductor.port_a);
    connect(conductor.port_b, rod.port_a);
    connect(rod.port_b, far.port);
  end Heating;
end Layout;
