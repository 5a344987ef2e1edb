// Ladder.mo's ladder with its parameters in an `inner` world (issue 60): the
// elements are small classes over the Thermal components whose C or G is a
// parameter of the `outer` world, `C = p.Ca`. Same physics and values as
// Ladder.mo, so its runs equal Ladder.Ladder's to the bit.
package LadderInner
  model Params "The parameters every element of the ladder shares"
    parameter Real Ca(unit = "J/K") = 50;
    parameter Real Cb(unit = "J/K") = 80;
    parameter Real Gs(unit = "W/K") = 2;
    parameter Real Gr(unit = "W/K") = 0.5;
  end Params;

  model CapacitorA "A capacitor of chain a"
    outer Params p;
    extends Thermal.Components.HeatCapacitor(C = p.Ca);
  end CapacitorA;

  model CapacitorB "A capacitor of chain b"
    outer Params p;
    extends Thermal.Components.HeatCapacitor(C = p.Cb);
  end CapacitorB;

  model Link "A conductor along either chain"
    outer Params p;
    extends Thermal.Components.ThermalConductor(G = p.Gs);
  end Link;

  model Rung "A conductor between the chains"
    outer Params p;
    extends Thermal.Components.ThermalConductor(G = p.Gr);
  end Rung;

  model Ladder "Two chains of n capacitors joined by rungs, fed at one end"
    parameter Integer n = 10;
    parameter Real Gk[3](each unit = "J/K") = {1, 2, 3};
    inner Params p;
    Thermal.Components.FixedTemperature source(T = 400);
    Thermal.Components.ThermalConductor feed(G = 10);
    CapacitorA a[n];
    CapacitorB b[n];
    Link ga[n - 1];
    Link gb[n - 1];
    Rung rung[n];
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
end LadderInner;
