within Thermal;
package Components "Lumped thermal components"

  model FixedTemperature "Boundary held at a fixed temperature"
    parameter SI.Temperature T = 293.15 "Boundary temperature";
    Interfaces.HeatPortOut port;
  equation
    port.T = T;
  end FixedTemperature;

  model FixedHeatFlow "Heat source that injects a fixed heat flow rate"
    parameter SI.HeatFlowRate Q_flow = 0 "Heat flow rate into the connected component";
    Interfaces.HeatPortIn port;
  equation
    // The source gives Q_flow away, so the heat flowing into it is -Q_flow.
    port.Q_flow = -Q_flow;
  end FixedHeatFlow;

  model HeatCapacitor "Body with one uniform temperature"
    parameter SI.HeatCapacity C = 1000 "Heat capacity";
    parameter SI.Temperature T0 = 293.15 "Initial temperature";
    Interfaces.HeatPortOut port;
    B.ContinuousState T(unit = "K", start = T0) "Temperature of the body";
  equation
    port.T = T;
    der(T) = port.Q_flow/C;
  end HeatCapacitor;

  model ThermalConductor "Lossless heat conduction between two ports"
    parameter SI.ThermalConductance G = 1 "Thermal conductance";
    Interfaces.HeatPortIn port_a;
    Interfaces.HeatPortIn port_b;
    SI.HeatFlowRate Q_flow "Heat flow rate from port_a to port_b";
  equation
    Q_flow = G*(port_a.T - port_b.T);
    port_a.Q_flow = Q_flow;
    port_b.Q_flow = -Q_flow;
  end ThermalConductor;

  model Rod "Rod insulated along its length, split into n lumped volumes"
    parameter Integer n(min = 2) = 5 "Number of volumes (at least 2)";
    parameter SI.Length L = 0.1 "Length";
    parameter SI.Area A = 1e-4 "Cross-section area";
    parameter SI.Density rho = 2700 "Density";
    parameter SI.SpecificHeatCapacity c = 900 "Specific heat capacity";
    parameter SI.ThermalConductivity lambda = 200 "Thermal conductivity";
    parameter SI.Temperature T0 = 293.15 "Initial temperature of every volume";
    parameter SI.HeatCapacity C = rho*c*A*L/n "Heat capacity of one volume";
    parameter SI.ThermalConductance G = lambda*A/(L/n) "Conductance between the centres of neighbouring volumes";
    // Each end volume lends its temperature to its port; the heat that enters
    // through a port goes into that end volume.
    Interfaces.HeatPortOut port_a "End at volume 1";
    Interfaces.HeatPortOut port_b "End at volume n";
    B.ContinuousState T[n](each unit = "K", each start = T0) "Temperatures of the volumes";
  equation
    port_a.T = T[1];
    port_b.T = T[n];
    der(T[1]) = (port_a.Q_flow + G*(T[2] - T[1]))/C;
    for i in 2:n-1 loop
      der(T[i]) = G*(T[i-1] - 2*T[i] + T[i+1])/C;
    end for;
    der(T[n]) = (port_b.Q_flow + G*(T[n-1] - T[n]))/C;
  end Rod;

end Components;
