within EnergyFlows;
package Components "Sources, storages, converters, loads and distributors"

  // A supplier delivers min(P_req, P_avail), written as the if-expression
  // `if P_req < P_avail then P_req else P_avail`: the relation is an event
  // indicator, so the kink where the request meets the availability is
  // located exactly by a state event (a time event where both sides depend
  // on time only) and the integrator never steps across it. Classes that pass
  // power on (converter, supplement, charger, bus) split the power they
  // receive instead of recomputing a minimum, so each kink has one relation.
  // Every class meters the energy it delivers or loses in a ContinuousState,
  // so an example's energy balance can be read at any output point.

  model Source "Supplier with a constant power limit and an energy meter"
    parameter SI.Power P_max = 1000 "Largest power the source delivers";
    Interfaces.PowerOut outlet;
    B.ContinuousState E(unit = "J", start = 0) "Energy delivered since the start";
  equation
    outlet.P_avail = P_max;
    outlet.P = if outlet.P_req < outlet.P_avail then outlet.P_req else outlet.P_avail;
    der(E) = outlet.P;
  end Source;

  model SignalSource "Supplier whose power limit is a signal (negative values count as 0)"
    S.Interfaces.RealInput P_max "Power the source could deliver now, in W";
    Interfaces.PowerOut outlet;
    B.ContinuousState E(unit = "J", start = 0) "Energy delivered since the start";
  equation
    // Written so that a signal that starts at 0 and rises is on the right
    // branch from the start: an indicator that leaves 0 is not a crossing.
    outlet.P_avail = if P_max < 0 then 0 else P_max;
    outlet.P = if outlet.P_req < outlet.P_avail then outlet.P_req else outlet.P_avail;
    der(E) = outlet.P;
  end SignalSource;

  model Load "Consumer whose demand is a signal (negative values count as 0)"
    S.Interfaces.RealInput P_demand "Power the load asks for, in W";
    Interfaces.PowerIn inlet;
    B.ContinuousState E(unit = "J", start = 0) "Energy delivered since the start";
    B.ContinuousState E_unmet(unit = "J", start = 0) "Energy requested but not delivered";
  equation
    inlet.P_req = if P_demand < 0 then 0 else P_demand;
    der(E) = inlet.P;
    der(E_unmet) = inlet.P_req - inlet.P;
  end Load;

  model Converter "Converts power with efficiency eta; the loss leaves through a heat port"
    parameter Real eta(unit = "1") = 0.9 "Efficiency (above 0, at most 1)";
    Interfaces.PowerIn inlet "From the supplier";
    Interfaces.PowerOut outlet "To the consumer";
    T.Interfaces.HeatPortIn heatPort "The loss leaves here as heat";
    SI.Power P_loss "Power converted into heat";
    B.ContinuousState E_loss(unit = "J", start = 0) "Energy lost as heat since the start";
  equation
    outlet.P_avail = eta*inlet.P_avail;
    inlet.P_req = outlet.P_req/eta;
    // The supplier delivers min(P_req/eta, P_avail), so the consumer gets
    // min(P_req, eta*P_avail): the minimum of its request and availability.
    outlet.P = eta*inlet.P;
    P_loss = inlet.P - outlet.P;
    // Q_flow is the heat flowing into the converter: the loss flows out.
    heatPort.Q_flow = -P_loss;
    der(E_loss) = P_loss;
  end Converter;

  model Storage "Energy store with a capacity, power limits and efficiencies"
    parameter SI.Energy capacity = 3.6e6 "Largest stored energy";
    parameter SI.Energy E0 = capacity "Initial stored energy (0 to capacity)";
    parameter SI.Power P_charge_max = 1000 "Largest charging power taken at the terminals";
    parameter SI.Power P_discharge_max = 1000 "Largest discharging power delivered at the terminals";
    parameter Real eta_charge(unit = "1") = 1 "Share of the charging power that is stored";
    parameter Real eta_discharge(unit = "1") = 1 "Delivered power per stored power drawn";
    Interfaces.PowerIn charge "Charging side: requests what the store can take";
    Interfaces.PowerOut discharge "Discharging side: offers what the store can give";
    B.ContinuousState E(unit = "J", start = E0) "Stored energy";
    B.ContinuousState E_loss(unit = "J", start = 0) "Energy lost in charging and discharging";
  equation
    // Full and empty are state events: the relation switches the request or
    // the availability to 0 exactly when E reaches the bound.
    charge.P_req = if E < capacity then P_charge_max else 0;
    discharge.P_avail = if E > 0 then P_discharge_max else 0;
    discharge.P = if discharge.P_req < discharge.P_avail then discharge.P_req else discharge.P_avail;
    der(E) = eta_charge*charge.P - discharge.P/eta_discharge;
    der(E_loss) = (1 - eta_charge)*charge.P + (1/eta_discharge - 1)*discharge.P;
  end Storage;

  model Supplement "Serves a consumer from a primary supplier and tops it up from a secondary one"
    Interfaces.PowerIn primary "Served first";
    Interfaces.PowerIn secondary "Supplies what the primary does not deliver";
    Interfaces.PowerOut outlet "To the consumer";
  equation
    outlet.P_avail = primary.P_avail + secondary.P_avail;
    primary.P_req = outlet.P_req;
    secondary.P_req = outlet.P_req - primary.P;
    outlet.P = primary.P + secondary.P;
  end Supplement;

  model SurplusCharger "Serves a consumer first and charges a storage from the surplus, with efficiency eta"
    parameter Real eta(unit = "1") = 0.95 "Efficiency of the charging path (above 0, at most 1)";
    Interfaces.PowerIn inlet "From the source";
    Interfaces.PowerOut outlet "To the consumer, served first and without loss";
    Interfaces.PowerOut charge "To the storage's charging side, served from the surplus";
    T.Interfaces.HeatPortIn heatPort "The charging loss leaves here as heat";
    SI.Power P_loss "Charging power converted into heat";
    B.ContinuousState E_loss(unit = "J", start = 0) "Energy lost as heat since the start";
  equation
    outlet.P_avail = inlet.P_avail;
    inlet.P_req = outlet.P_req + charge.P_req/eta;
    // The consumer first: it gets min(its request, the availability).
    outlet.P = if outlet.P_req < inlet.P_avail then outlet.P_req else inlet.P_avail;
    // What the source has left over after the consumer, through the charger.
    // The source delivers min(outlet.P_req + charge.P_req/eta, P_avail), so
    // the rest of it, times eta, is min(charge.P_req, charge.P_avail).
    charge.P_avail = eta*(inlet.P_avail - outlet.P);
    charge.P = eta*(inlet.P - outlet.P);
    P_loss = inlet.P - outlet.P - charge.P;
    heatPort.Q_flow = -P_loss;
    der(E_loss) = P_loss;
  end SurplusCharger;

  model PrioritySplit "Serves one consumer first and offers what is left to the next"
    // Outlet `served` receives min(its request, the availability); `rest` is
    // offered what is left and receives the rest of what the supplier
    // delivers, which is min(its request, its availability) because the
    // supplier delivers min(the sum of the requests, the availability). The
    // inlet requests the sum. One stage of a PriorityBus.
    Interfaces.PowerIn inlet "From the supplier";
    Interfaces.PowerOut served "Served first";
    Interfaces.PowerOut rest "Served from what `served` leaves";
  equation
    inlet.P_req = served.P_req + rest.P_req;
    served.P_avail = inlet.P_avail;
    served.P = if served.P_req < served.P_avail then served.P_req else served.P_avail;
    rest.P_avail = inlet.P_avail - served.P;
    rest.P = inlet.P - served.P;
  end PrioritySplit;

  model NoDemand "Consumer that requests nothing: closes the chain of a PriorityBus"
    Interfaces.PowerIn inlet;
  equation
    inlet.P_req = 0;
  end NoDemand;

  model PriorityBus "Serves n consumers in priority order: outlet[1] first, each next one from what the earlier ones leave"
    // A chain of n PrioritySplit stages: stage i serves outlet[i] and offers
    // the rest to stage i + 1; the last stage's rest goes to a NoDemand. So
    // outlet k is offered P_avail - (P_1 + ... + P_{k-1}) and receives
    // min(P_req_k, that), the recurrence written as connections of one class
    // each, which every size n compiles to the same kernels.
    parameter Integer n = 2 "Number of outlets";
    Interfaces.PowerIn inlet "From the supplier";
    Interfaces.PowerOut outlet[n] "Consumers; outlet[1] has the highest priority";
  protected
    PrioritySplit stage[n] "Stage i serves outlet[i]";
    NoDemand chainEnd "Takes the last stage's rest: nothing";
  equation
    connect(inlet, stage[1].inlet);
    for i in 1:n loop
      connect(stage[i].served, outlet[i]);
    end for;
    for i in 1:n - 1 loop
      connect(stage[i].rest, stage[i + 1].inlet);
    end for;
    connect(stage[n].rest, chainEnd.inlet);
  end PriorityBus;

end Components;
