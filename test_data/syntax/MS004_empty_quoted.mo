model M
  Real ''; // empty quoted identifier
end M;
