// Rotations whose states are stored far apart: x[1..n] first, then
// y[1..n], with der(x[i]) = -w_i*y[i] and der(y[i]) = w_i*x[i], w_i = w0*i/n. In the
// states' own order the Jacobian's band is n wide; the embedded
// Co-Simulation solver must colour its columns (one colour: every column
// has one entry, each in a row of its own) and reorder
// the states (reverse Cuthill-McKee) into pairs, a band of 1. Closed form
// from x = 1, y = 0: x[i] = cos(w_i t), y[i] = sin(w_i t).
encapsulated package Pairs
  import B = Base;

  model Rotations "n rotations with angular velocities w0*i/n"
    parameter Integer n = 40;
    parameter Real w0 = 1 "Angular velocity of the last pair";
    B.ContinuousState x[n](each start = 1);
    B.ContinuousState y[n](each start = 0);
  equation
    for i in 1:n loop
      der(x[i]) = -w0*i/n*y[i];
      der(y[i]) = w0*i/n*x[i];
    end for;
  end Rotations;
end Pairs;
