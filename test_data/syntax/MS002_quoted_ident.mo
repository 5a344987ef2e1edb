model M
  Real 'open;
  Real y;
end M;
