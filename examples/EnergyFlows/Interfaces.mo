within EnergyFlows;
package Interfaces "The directed power connector pair"

  // A power flow goes from a supplier's PowerOut to a consumer's PowerIn.
  // The consumer determines the request P_req (what it wants now, never
  // negative). The supplier determines the availability P_avail (what it
  // could deliver now, never negative, independent of the request) and the
  // delivered power P = min(P_req, P_avail), which it decides alone and
  // meters; the consumer receives both. One class decides each delivered
  // power, so one relation (one event indicator) stands for each kink.
  //
  // A supplier's availability never depends on the request it receives, and
  // a consumer's request never depends on the power delivered through the
  // same connection, so a connection never closes an algebraic loop.

  connector PowerOut "Supplier side: the owner determines the availability and the delivered power"
    output SI.Power P_avail "Power the owner could deliver now (not negative)";
    output SI.Power P "Power the owner delivers now: min(P_req, P_avail)";
    input SI.Power P_req "Power the consumer requests now (not negative)";
  end PowerOut;

  connector PowerIn "Consumer side: the owner determines the request"
    input SI.Power P_avail "Power the supplier could deliver now (not negative)";
    input SI.Power P "Power the supplier delivers now: min(P_req, P_avail)";
    output SI.Power P_req "Power the owner requests now (not negative)";
  end PowerIn;

end Interfaces;
