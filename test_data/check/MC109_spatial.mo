package P
  block B
    input Real u;
    output Real y;
  equation
    y = spatialDistribution(u, u, 0, true); // <- MC109
  end B;
end P;
