model M
  Integer big = 99999999999999999999;
  Real huge = 1e999;
  Real bad = 1.5e;
  Real glued = 3abc;
  Real fine = 1e308;
end M;
