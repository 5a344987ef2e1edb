// UC004 in a function body: an assignment whose value is in another unit
// than its target; the twin function assigns a power to a power.
package UC004_function_body
  record State
    Real p(unit = "Pa");
    Real T(unit = "K");
  end State;
  function bad
    input Real Q(unit = "W");
    input Real G(unit = "W/K");
    output Real dT(unit = "K");
  algorithm
    dT := Q*G;
  end bad;
  function good
    input Real Q(unit = "W");
    input Real G(unit = "W/K");
    output Real dT(unit = "K");
  algorithm
    dT := Q/G;
  end good;
  function setState
    input Real p(unit = "Pa");
    input Real T(unit = "K");
    output State s;
  algorithm
    s := State(p = T, T = p);
  end setState;
end UC004_function_body;
