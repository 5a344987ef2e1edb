package P
  record S
    Real p;
    Real T;
  end S;
  function setState
    input Real p;
    input Real T;
    output S state;
  algorithm
    state := S(p = p, T = T);
  end setState;
  model M
    parameter Real p = 1e5;
    S s = setState(p, 300);
    Real y;
  equation
    y = s.p*time;
  end M;
end P;
