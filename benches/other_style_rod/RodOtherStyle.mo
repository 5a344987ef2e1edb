// The rod of issue 23 item 4, written in another style than Thermal.Components.Rod:
// per volume der(T[i]) = k*(T[i-1] - 2*T[i] + T[i+1]) with k a bound parameter, the end
// volumes fed by their ports through a second parameter kq. Loaded after examples/Base.mo
// and examples/Thermal; limit.c holds its hand-written twin (see run.sh).
within;
encapsulated package RodOtherStyle "The rod written per volume with a bound diffusion coefficient"
  import Base;
  import SI = Base.Units;
  import Thermal;

  model Rod "Rod of n volumes, der(T[i]) = k*(T[i-1] - 2*T[i] + T[i+1])"
    parameter Integer n(min = 3) = 5 "Number of volumes";
    parameter SI.Length L = 0.1 "Length";
    parameter SI.Area A = 1e-4 "Cross-section area";
    parameter SI.Density rho = 2700 "Density";
    parameter SI.SpecificHeatCapacity c = 900 "Specific heat capacity";
    parameter SI.ThermalConductivity lambda = 200 "Thermal conductivity";
    parameter SI.Temperature T0 = 293.15 "Initial temperature";
    parameter Real k(unit = "1/s") = lambda/(rho*c)*(n/L)^2 "Diffusion coefficient of one volume";
    parameter Real kq(unit = "K/J") = n/(rho*c*A*L) "Temperature rise per joule of an end volume";
    Thermal.Interfaces.HeatPortOut port_a;
    Thermal.Interfaces.HeatPortOut port_b;
    Base.ContinuousState T[n](each unit = "K", each start = T0);
  equation
    port_a.T = T[1];
    port_b.T = T[n];
    der(T[1]) = kq*port_a.Q_flow + k*(T[2] - T[1]);
    for i in 2:n-1 loop
      der(T[i]) = k*(T[i-1] - 2*T[i] + T[i+1]);
    end for;
    der(T[n]) = kq*port_b.Q_flow + k*(T[n-1] - T[n]);
  end Rod;
  model Heating "Heated at volume 1 through a conductor from 400 K, closed at volume n"
    Thermal.Components.FixedTemperature source(T = 400);
    Thermal.Components.ThermalConductor conductor(G = 1);
    Rod rod(n = 5, T0 = 300);
    Thermal.Components.FixedHeatFlow insulation(Q_flow = 0);
  equation
    connect(source.port, conductor.port_a);
    connect(conductor.port_b, rod.port_a);
    connect(rod.port_b, insulation.port);
  end Heating;
end RodOtherStyle;
