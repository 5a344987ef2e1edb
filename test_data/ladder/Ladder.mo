// A thermal ladder (issue 60): two chains of n capacitors joined by rungs,
// fed at one end; the elements take model parameters (`each C = Ca`, and
// `C = Gk` one element each). LadderLiteral.mo is the same with literals.
package Ladder
  model Ladder "Two chains of n capacitors joined by rungs, fed at one end"
    parameter Integer n = 10;
    parameter Real Ca(unit = "J/K") = 50;
    parameter Real Cb(unit = "J/K") = 80;
    parameter Real Gs(unit = "W/K") = 2;
    parameter Real Gr(unit = "W/K") = 0.5;
    parameter Real Gk[3](each unit = "J/K") = {1, 2, 3};
    Thermal.Components.FixedTemperature source(T = 400);
    Thermal.Components.ThermalConductor feed(G = 10);
    Thermal.Components.HeatCapacitor a[n](each C = Ca);
    Thermal.Components.HeatCapacitor b[n](each C = Cb);
    Thermal.Components.ThermalConductor ga[n - 1](each G = Gs);
    Thermal.Components.ThermalConductor gb[n - 1](each G = Gs);
    Thermal.Components.ThermalConductor rung[n](each G = Gr);
    Thermal.Components.HeatCapacitor c[3](C = Gk);
    Thermal.Components.ThermalConductor ck[3](each G = 1);
  equation
    connect(source.port, feed.port_a);
    connect(a[1].port, feed.port_b);
    for i in 1:n - 1 loop
      connect(a[i].port, ga[i].port_a);
      connect(a[i + 1].port, ga[i].port_b);
      connect(b[i].port, gb[i].port_a);
      connect(b[i + 1].port, gb[i].port_b);
    end for;
    for i in 1:3 loop
      connect(c[i].port, ck[i].port_a);
      connect(b[n].port, ck[i].port_b);
    end for;
    for i in 1:n loop
      connect(a[i].port, rung[i].port_a);
      connect(b[i].port, rung[i].port_b);
    end for;
  end Ladder;

  model LadderSplit "The ladder with each chain's conductors bound to a parameter of its own"
    // Gt = Gs: the same equations as Ladder (one twin serves both), but
    // ga and gb are two repeats side by side, which the compiled schedule
    // runs as one loop with the capacitors, not a repeat of 2(n - 1)
    // rounds over both chains one after the other.
    parameter Integer n = 10;
    parameter Real Ca(unit = "J/K") = 50;
    parameter Real Cb(unit = "J/K") = 80;
    parameter Real Gs(unit = "W/K") = 2;
    parameter Real Gt(unit = "W/K") = 2;
    parameter Real Gr(unit = "W/K") = 0.5;
    parameter Real Gk[3](each unit = "J/K") = {1, 2, 3};
    Thermal.Components.FixedTemperature source(T = 400);
    Thermal.Components.ThermalConductor feed(G = 10);
    Thermal.Components.HeatCapacitor a[n](each C = Ca);
    Thermal.Components.HeatCapacitor b[n](each C = Cb);
    Thermal.Components.ThermalConductor ga[n - 1](each G = Gs);
    Thermal.Components.ThermalConductor gb[n - 1](each G = Gt);
    Thermal.Components.ThermalConductor rung[n](each G = Gr);
    Thermal.Components.HeatCapacitor c[3](C = Gk);
    Thermal.Components.ThermalConductor ck[3](each G = 1);
  equation
    connect(source.port, feed.port_a);
    connect(a[1].port, feed.port_b);
    for i in 1:n - 1 loop
      connect(a[i].port, ga[i].port_a);
      connect(a[i + 1].port, ga[i].port_b);
      connect(b[i].port, gb[i].port_a);
      connect(b[i + 1].port, gb[i].port_b);
    end for;
    for i in 1:3 loop
      connect(c[i].port, ck[i].port_a);
      connect(b[n].port, ck[i].port_b);
    end for;
    for i in 1:n loop
      connect(a[i].port, rung[i].port_a);
      connect(b[i].port, rung[i].port_b);
    end for;
  end LadderSplit;
end Ladder;
