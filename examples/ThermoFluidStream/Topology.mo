within ThermoFluidStream;
package Topology "Where paths divide and meet: splitter and junction, each closed by declared tearing"

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
    Real acceleration(unit = "kg/s2") "Acceleration of the outlet path";
    Units.Pressure r_mix "Inertial pressure at the junction";
  protected
    // The outlet path's flow is owned downstream; its acceleration is the
    // balance of a declared tearing, closed by the derivative the outlet's
    // flow carries back. Path A ends here (a state, like a sink); path B's
    // flow is the rest, so der(mB) = acceleration - der(mA).
    B.LinearResponse cut;
  equation
    acceleration = cut.balance;
    m_out = -outlet.m_flow;
    mB = m_out - mA;
    inletA.m_flow = mA;
    inletB.m_flow = mB;
    wA = (noEvent(abs(mA)) + m_flow_eps)/(noEvent(abs(mA)) + noEvent(abs(mB)) + 2*m_flow_eps);
    p_mix = wA*inletA.p + (1 - wA)*inletB.p;
    h_mix = wA*inletA.h + (1 - wA)*inletB.h;
    // Both inlet paths meet the same total pressure p_mix + r_mix:
    // (LA + L) der(mA) = rA + pA - p_mix - r_mix and
    // (LB + L) der(mB) = rB + pB - p_mix - r_mix, with der(mB) = a - der(mA).
    der(mA) = (inletA.r + inletA.p - inletB.r - inletB.p + (inletB.L + L)*acceleration)/(inletA.L + inletB.L + 2*L);
    r_mix = inletB.r + inletB.p - p_mix - (inletB.L + L)*(acceleration - der(mA));
    outlet.r = r_mix;
    outlet.L = L;
    outlet.p = p_mix;
    outlet.h = h_mix;
    cut.residual = acceleration + der(outlet.m_flow);
  end Junction;

end Topology;
