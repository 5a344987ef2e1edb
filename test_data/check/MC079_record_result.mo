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
    Real y;
  equation
    y = setState(p, 300)*time; // <- MC079
  end M;
end P;
