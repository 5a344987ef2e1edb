package P
  // Signals, then their potentials, then their flows, as the methodology's
  // Listing 1 writes a planar flange; the interleaved order checks too.
  connector Grouped
    input Real x;
    input Real y;
    Real vx;
    Real vy;
    flow Real fx;
    flow Real fy;
  end Grouped;
  connector Interleaved
    input Real x;
    Real vx;
    flow Real fx;
    input Real y;
    Real vy;
    flow Real fy;
  end Interleaved;
end P;
