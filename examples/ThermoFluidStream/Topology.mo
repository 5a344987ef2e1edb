within ThermoFluidStream;
package Topology "Where paths divide: a splitter closes its inlet path by declared tearing"

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

end Topology;
