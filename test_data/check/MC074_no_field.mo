package P
  record Liquid
    Real cp;
    Real T_ref;
  end Liquid;
  constant Liquid water = Liquid(cp = 4184, T_ref = 273.15);
  function h
    input Real T;
    input Liquid liquid;
    output Real y;
  algorithm
    y := liquid.cpp*(T - liquid.T_ref); // <- MC074
  end h;
  model M
    Real y;
  equation
    y = water.rho*time; // <- MC074
  end M;
end P;
