// Planar rigid-body mechanics in dialectic form, written under the strict
// modelling methodology. Every chain of bodies and joints starts at a fixed
// frame (Parts.Fixed) and is causal from its root to its tips: positions and
// velocities (with their derivatives) flow down the chain, forces and torques
// flow back up. Joints choose their accelerations through declared
// LinearResponse tearing so that they transmit exactly the force or torque
// they should; kinematic loops are closed by Joints.LoopRevolute. See
// docs/planar.md for the formulation and for what the dialectic time
// constant TD does to the results.
//
// The sub-packages live in their own files and load in package.order order;
// each depends only on the ones before it.
encapsulated package Planar "Planar mechanics with assumed causality and declared tearing"
  import B = Base;
  import SI = Base.Units;
end Planar;
