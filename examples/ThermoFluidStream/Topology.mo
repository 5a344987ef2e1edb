within ThermoFluidStream;
package Topology "Where paths divide and meet: a splitter closed by declared tearing, a junction that passes its inertance on"

  model Splitter "One stream into two: the state passes through; the paths couple through the inlet path's acceleration"
    parameter Units.Inertance L = 0.01 "Inertance of the splitter, counted into the inlet path";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outletA;
    Interfaces.Outlet outletB;
    Units.Pressure r_node "Inertial pressure at the branch point";
    Real acceleration(unit = "kg/s2") "Acceleration of the inlet path, der of mA + mB";
  protected
    // The inlet path carries m = mA + mB, owned by nobody: its acceleration
    // is the balance of a declared tearing, and the residual says that it
    // equals the sum of the accelerations the two outlet paths carry back.
    // r_node is affine in the balance, and so is every sink's der(m).
    B.LinearResponse cut;
  equation
    acceleration = cut.balance;
    r_node = inlet.r - (inlet.L + L)*acceleration;
    outletA.r = r_node;
    outletA.L = 0;
    outletA.p = inlet.p;
    outletA.h = inlet.h;
    outletB.r = r_node;
    outletB.L = 0;
    outletB.p = inlet.p;
    outletB.h = inlet.h;
    inlet.m_flow = -(outletA.m_flow + outletB.m_flow);
    cut.residual = acceleration + der(outletA.m_flow) + der(outletB.m_flow);
  end Splitter;

  model Junction "Two streams into one: mixes p and h with regularised flow weights; closes inlet path A, continues path B"
    parameter Units.Inertance L = 0.01 "Inertance of each junction port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of inlet path A";
    Interfaces.Inlet inletA;
    Interfaces.Inlet inletB;
    Interfaces.Outlet outlet;
    B.ContinuousState mA(unit = "kg/s", start = m_flow_0) "Mass flow rate of inlet path A, which ends here";
    Units.MassFlowRate m_out "Mass flow rate of the outlet path";
    Units.MassFlowRate mB "Mass flow rate of inlet path B, which continues into the outlet path";
    Real wA(unit = "1") "Mixing weight of inlet A";
    Units.AbsolutePressure p_mix "Mixed steady-state pressure";
    Units.SpecificEnthalpy h_mix "Mixed specific enthalpy";
    Real gA(unit = "m") "Inverse inertance 1/(LA + L) of inlet path A up to the mixing point";
    Real gB(unit = "m") "Inverse inertance 1/(LB + L) of inlet path B up to the mixing point";
    Units.Pressure p_total0 "Total pressure at the mixing point when the outlet path does not accelerate";
    Real acceleration(unit = "kg/s2") "Acceleration of the outlet path, carried back by its flow";
    Units.Pressure r_mix "Inertial pressure at the mixing point";
  equation
    // Both inlet paths meet the same total pressure P at the mixing point:
    // (LA + L) der(mA) = rA + pA - P and (LB + L) der(mB) = rB + pB - P,
    // with der(mA) + der(mB) = acceleration, the outlet path's. So
    // P = P0 - acceleration/(gA + gB), P0 = (gA (rA + pA) + gB (rB + pB))/(gA + gB):
    // affine in the outlet's acceleration with the inertance of the two
    // inlet paths in parallel, 1/(gA + gB). The outlet carries that form
    // (r = P0 - p_mix, L = L + 1/(gA + gB)), so the path's owner downstream
    // solves for the acceleration, which comes back with the outlet's flow:
    // no tearing (docs/thermofluid.md, "Where paths meet").
    m_out = -outlet.m_flow;
    mB = m_out - mA;
    inletA.m_flow = mA;
    inletB.m_flow = mB;
    wA = (noEvent(abs(mA)) + m_flow_eps)/(noEvent(abs(mA)) + noEvent(abs(mB)) + 2*m_flow_eps);
    p_mix = wA*inletA.p + (1 - wA)*inletB.p;
    h_mix = wA*inletA.h + (1 - wA)*inletB.h;
    gA = 1/(inletA.L + L);
    gB = 1/(inletB.L + L);
    p_total0 = (gA*(inletA.r + inletA.p) + gB*(inletB.r + inletB.p))/(gA + gB);
    outlet.r = p_total0 - p_mix;
    outlet.L = L + 1/(gA + gB);
    outlet.p = p_mix;
    outlet.h = h_mix;
    acceleration = -der(outlet.m_flow);
    r_mix = p_total0 - acceleration/(gA + gB) - p_mix;
    der(mA) = gA*(inletA.r + inletA.p - p_mix - r_mix);
  end Junction;

  model SplitterN "One stream into N: the state passes through; the N paths couple through the inlet path's acceleration"
    parameter Integer N = 2 "Number of outlets";
    parameter Units.Inertance L = 0.01 "Inertance of the splitter, counted into the inlet path";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outlet[N] "Each starts a path (r = r_node, L = 0)";
    Units.Pressure r_node "Inertial pressure at the branch point";
    Real acceleration(unit = "kg/s2") "Acceleration of the inlet path, der of the sum of the outlet flows";
    Real a_out[N](each unit = "kg/s2") "Acceleration each outlet path carries back (negative when the fluid leaves)";
  protected
    // As Splitter: the inlet path's flow is the sum of the outlet paths'
    // flows, owned by nobody; its acceleration is the balance of a declared
    // tearing whose residual sums the accelerations the N outlet flows carry
    // back. r_node is affine in the balance, and so is each owner's der(m).
    B.LinearResponse cut;
  equation
    acceleration = cut.balance;
    r_node = inlet.r - (inlet.L + L)*acceleration;
    for i in 1:N loop
      outlet[i].r = r_node;
      outlet[i].L = 0;
      outlet[i].p = inlet.p;
      outlet[i].h = inlet.h;
    end for;
    inlet.m_flow = -sum(outlet.m_flow);
    for i in 1:N loop
      a_out[i] = der(outlet[i].m_flow);
    end for;
    cut.residual = acceleration + sum(a_out);
  end SplitterN;

  model JunctionN "N streams into one: mixes p and h with regularised flow weights; closes inlet paths 1..N-1, continues path N"
    parameter Integer N = 2 "Number of inlets";
    parameter Units.Inertance L = 0.01 "Inertance of each junction port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of each closed inlet path";
    Interfaces.Inlet inlet[N];
    Interfaces.Outlet outlet;
    B.ContinuousState m[N - 1](each unit = "kg/s", each start = m_flow_0) "Mass flow rates of inlet paths 1..N-1, which end here";
    Units.MassFlowRate m_in[N] "Mass flow rate of each inlet path";
    Units.MassFlowRate m_out "Mass flow rate of the outlet path";
    Real a[N](each unit = "kg/s") "Regularised flow magnitudes |m_i| + eps";
    Real w[N](each unit = "1") "Mixing weights, summing to 1";
    Real g[N](each unit = "m") "Inverse inertance 1/(L_i + L) of each inlet path up to the mixing point";
    Real gt[N](each unit = "m.Pa") "g_i times the total pressure r_i + p_i that arrives at inlet i";
    Real dm[N](each unit = "kg/s2") "Acceleration of each inlet path (they sum to the outlet path's)";
    Units.AbsolutePressure p_mix "Mixed steady-state pressure";
    Units.SpecificEnthalpy h_mix "Mixed specific enthalpy";
    Units.Pressure p_total0 "Total pressure at the mixing point when the outlet path does not accelerate";
    Real acceleration(unit = "kg/s2") "Acceleration of the outlet path, carried back by its flow";
    Units.Pressure p_total "Total pressure p_mix + r_mix that every inlet path meets";
    Units.Pressure r_mix "Inertial pressure at the mixing point";
  equation
    // As Junction, for N inlets: every inlet path meets the same total
    // pressure P, (L_i + L) der(m_i) = r_i + p_i - P, and the accelerations
    // sum to the outlet path's, so P = P0 - acceleration/sum(g) with
    // P0 = sum(g_i (r_i + p_i))/sum(g), g_i = 1/(L_i + L). The outlet carries
    // that affine form (r = P0 - p_mix, L = L + 1/sum(g): the inlet paths'
    // inertances in parallel); the path's owner downstream solves for the
    // acceleration, which comes back with the outlet's flow. Inlet paths
    // 1..N-1 end here (states, like sinks); path N continues into the
    // outlet path, its flow is the rest. No tearing.
    m_out = -outlet.m_flow;
    for i in 1:N - 1 loop
      m_in[i] = m[i];
    end for;
    m_in[N] = m_out - sum(m);
    for i in 1:N loop
      inlet[i].m_flow = m_in[i];
    end for;
    for i in 1:N loop
      a[i] = noEvent(abs(m_in[i])) + m_flow_eps;
    end for;
    for i in 1:N loop
      w[i] = a[i]/sum(a);
    end for;
    p_mix = sum(w .* inlet.p);
    h_mix = sum(w .* inlet.h);
    for i in 1:N loop
      g[i] = 1/(inlet[i].L + L);
    end for;
    for i in 1:N loop
      gt[i] = g[i]*(inlet[i].r + inlet[i].p);
    end for;
    p_total0 = sum(gt)/sum(g);
    outlet.r = p_total0 - p_mix;
    outlet.L = L + 1/sum(g);
    outlet.p = p_mix;
    outlet.h = h_mix;
    acceleration = -der(outlet.m_flow);
    p_total = p_total0 - acceleration/sum(g);
    r_mix = p_total - p_mix;
    for i in 1:N loop
      dm[i] = g[i]*(inlet[i].r + inlet[i].p - p_total);
    end for;
    for i in 1:N - 1 loop
      der(m[i]) = dm[i];
    end for;
    for i in 1:N loop
      der(inlet[i].m_flow) = dm[i];
    end for;
  end JunctionN;

  model JunctionNM "N streams into M: a JunctionN whose outlet feeds a SplitterN"
    // As published: the mixed stream of the junction is divided by the
    // splitter. The segment between them has the junction's outlet port and
    // the splitter's inlet port, each of inertance L. The junction forwards
    // its affine total pressure to the splitter, whose declared tearing is
    // the only balance (one 1x1 system, the splitter's own).
    parameter Integer N = 2 "Number of inlets";
    parameter Integer M = 2 "Number of outlets";
    parameter Units.Inertance L = 0.01 "Inertance of each port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of each closed inlet path";
    Interfaces.Inlet inlet[N] "Inlets 1..N-1 are closed here, inlet N continues into the splitter's inlet path";
    Interfaces.Outlet outlet[M] "Each starts a path";
    JunctionN junction(N = N, L = L, m_flow_eps = m_flow_eps, m_flow_0 = m_flow_0);
    SplitterN splitter(N = M, L = L);
  equation
    for i in 1:N loop
      connect(inlet[i], junction.inlet[i]);
    end for;
    connect(junction.outlet, splitter.inlet);
    for j in 1:M loop
      connect(splitter.outlet[j], outlet[j]);
    end for;
  end JunctionNM;

  // The T and X variants: the published library's fittings of fixed shape,
  // JunctionN, SplitterN or JunctionNM behind named ports. T1 and T2 (and
  // X1 and X2) differ only in where a diagram draws the ports; Lite has no
  // diagrams, so each pair is two classes with the same equations, kept so
  // that a model written against the published names reads the same.

  model JunctionT1 "Two streams into one, T shape with inlets A and B opposite and the outlet at the stem: JunctionN with N = 2"
    parameter Units.Inertance L = 0.01 "Inertance of each junction port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of inlet path A";
    Interfaces.Inlet inletA "Closed here: its flow is a state of the junction";
    Interfaces.Inlet inletB "Continues into the outlet path";
    Interfaces.Outlet outlet;
    JunctionN junction(N = 2, L = L, m_flow_eps = m_flow_eps, m_flow_0 = m_flow_0);
  equation
    connect(inletA, junction.inlet[1]);
    connect(inletB, junction.inlet[2]);
    connect(junction.outlet, outlet);
  end JunctionT1;

  model JunctionT2 "Two streams into one, T shape with inlet B in line with the outlet and A from the side: JunctionN with N = 2"
    parameter Units.Inertance L = 0.01 "Inertance of each junction port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of inlet path A";
    Interfaces.Inlet inletA "Closed here: its flow is a state of the junction";
    Interfaces.Inlet inletB "Continues into the outlet path";
    Interfaces.Outlet outlet;
    JunctionN junction(N = 2, L = L, m_flow_eps = m_flow_eps, m_flow_0 = m_flow_0);
  equation
    connect(inletA, junction.inlet[1]);
    connect(inletB, junction.inlet[2]);
    connect(junction.outlet, outlet);
  end JunctionT2;

  model JunctionX1 "Two streams into two, X shape with inlet B in line with outlet a and inlet A opposite outlet b: JunctionNM with N = M = 2"
    parameter Units.Inertance L = 0.01 "Inertance of each port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of inlet path A";
    Interfaces.Inlet inletA "Closed here: its flow is a state of the junction";
    Interfaces.Inlet inletB "Continues into the splitter's inlet path";
    Interfaces.Outlet outleta;
    Interfaces.Outlet outletb;
    JunctionNM junction(N = 2, M = 2, L = L, m_flow_eps = m_flow_eps, m_flow_0 = m_flow_0);
  equation
    connect(inletA, junction.inlet[1]);
    connect(inletB, junction.inlet[2]);
    connect(junction.outlet[1], outleta);
    connect(junction.outlet[2], outletb);
  end JunctionX1;

  model JunctionX2 "Two streams into two, X shape with inlets A and B opposite and outlets a and b opposite: JunctionNM with N = M = 2"
    parameter Units.Inertance L = 0.01 "Inertance of each port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of inlet path A";
    Interfaces.Inlet inletA "Closed here: its flow is a state of the junction";
    Interfaces.Inlet inletB "Continues into the splitter's inlet path";
    Interfaces.Outlet outleta;
    Interfaces.Outlet outletb;
    JunctionNM junction(N = 2, M = 2, L = L, m_flow_eps = m_flow_eps, m_flow_0 = m_flow_0);
  equation
    connect(inletA, junction.inlet[1]);
    connect(inletB, junction.inlet[2]);
    connect(junction.outlet[1], outleta);
    connect(junction.outlet[2], outletb);
  end JunctionX2;

  model JunctionX3 "Three streams into one, X shape with inlet B in line with the outlet: JunctionN with N = 3"
    parameter Units.Inertance L = 0.01 "Inertance of each junction port";
    parameter Units.MassFlowRate m_flow_eps = 0.01 "Regularisation of the mixing weights at zero flow";
    parameter Units.MassFlowRate m_flow_0 = 0 "Initial mass flow rate of inlet paths A and B";
    Interfaces.Inlet inletA "Closed here: its flow is a state of the junction";
    Interfaces.Inlet inletB "Closed here: its flow is a state of the junction";
    Interfaces.Inlet inletC "Continues into the outlet path";
    Interfaces.Outlet outlet;
    JunctionN junction(N = 3, L = L, m_flow_eps = m_flow_eps, m_flow_0 = m_flow_0);
  equation
    connect(inletA, junction.inlet[1]);
    connect(inletB, junction.inlet[2]);
    connect(inletC, junction.inlet[3]);
    connect(junction.outlet, outlet);
  end JunctionX3;

  model SplitterT1 "One stream into two, T shape with outlets A and B opposite and the inlet at the stem: SplitterN with N = 2"
    parameter Units.Inertance L = 0.01 "Inertance of the splitter, counted into the inlet path";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outletA;
    Interfaces.Outlet outletB;
    SplitterN splitter(N = 2, L = L);
  equation
    connect(inlet, splitter.inlet);
    connect(splitter.outlet[1], outletA);
    connect(splitter.outlet[2], outletB);
  end SplitterT1;

  model SplitterT2 "One stream into two, T shape with outlet B in line with the inlet and A to the side: SplitterN with N = 2"
    parameter Units.Inertance L = 0.01 "Inertance of the splitter, counted into the inlet path";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outletA;
    Interfaces.Outlet outletB;
    SplitterN splitter(N = 2, L = L);
  equation
    connect(inlet, splitter.inlet);
    connect(splitter.outlet[1], outletA);
    connect(splitter.outlet[2], outletB);
  end SplitterT2;

  model SplitterX "One stream into three, X shape with outlet C in line with the inlet: SplitterN with N = 3"
    parameter Units.Inertance L = 0.01 "Inertance of the splitter, counted into the inlet path";
    Interfaces.Inlet inlet;
    Interfaces.Outlet outletA;
    Interfaces.Outlet outletB;
    Interfaces.Outlet outletC;
    SplitterN splitter(N = 3, L = L);
  equation
    connect(inlet, splitter.inlet);
    connect(splitter.outlet[1], outletA);
    connect(splitter.outlet[2], outletB);
    connect(splitter.outlet[3], outletC);
  end SplitterX;

end Topology;
