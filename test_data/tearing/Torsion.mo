// A torsion oscillator built from the bundled Planar library's rotational
// part (load it after examples/Base.mo, examples/Signals.mo, examples/Planar):
// an inertia on a spring-damper to a fixed flange, pushed by a constant
// torque. With TD = 0 it is the textbook J*phi'' = -c*phi - d*phi' + tau.
model Torsion
  Planar.Rotational.Fixed fixed(phi0 = 0);
  Planar.Rotational.SpringDamper spring(c = 4, d = 0.4, phi_rel0 = 0);
  Planar.Rotational.Inertia inertia(J = 1, TD = 0, phi_start = 1, w_start = 0);
  Planar.Rotational.ConstantTorque torque(tau_constant = 2);
equation
  connect(fixed.flange, spring.flange_a);
  connect(inertia.flange, spring.flange_b);
  connect(inertia.flange, torque.flange);
end Torsion;
