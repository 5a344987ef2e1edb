model M
  Real x;
/* this comment
   never ends
end M;
