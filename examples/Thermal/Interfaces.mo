within Thermal;
package Interfaces "Thermal connectors with assumed causality"

  // Both ports carry a temperature and a heat flow rate. Q_flow is, as
  // everywhere in Modelica, the heat flowing into the component that owns the
  // port. In connect(a, b) one side determines T and the other side Q_flow.

  connector HeatPortOut "Port whose owner determines the temperature"
    output SI.Temperature T "Port temperature, determined by the owner";
    flow SI.HeatFlowRate Q_flow "Heat flow rate into the owner, known to the owner";
  end HeatPortOut;

  connector HeatPortIn "Port whose owner determines the heat flow rate"
    input SI.Temperature T "Port temperature, known to the owner";
    flow SI.HeatFlowRate Q_flow "Heat flow rate into the owner, determined by the owner";
  end HeatPortIn;

end Interfaces;
