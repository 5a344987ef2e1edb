model M
  parameter Integer n = 3;
  Pin p[n];
  Real[2] y[3];
  Real z[:, 2];
  Cell c[n](each T = 1) if n > 0 "cells";
  Real a, b[2];
equation
  y[end, 1] = z[1, :];
end M;
