// Every element of an array constructor has the array's unit: the
// tangential velocity w*{-r, r} is in m/s when w is in rad/s (rad counts
// as dimension one) and r in m; mixing a length and a time in one
// constructor is inconsistent at that equation.
package Arrays
  block Tangential
    input Real w(unit = "rad/s");
    input Real r(unit = "m");
    output Real v[2](each unit = "m/s");
  equation
    v = w*{-r, r};
  end Tangential;
  block Mixed
    input Real w(unit = "rad/s");
    input Real r(unit = "m");
    input Real t(unit = "s");
    output Real v[2];
  equation
    v = w*{-r, t};
  end Mixed;
end Arrays;
