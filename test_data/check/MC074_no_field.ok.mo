// export: P.M
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
    y := liquid.cp*(T - liquid.T_ref);
  end h;
  model M
    Real y;
    Real z;
  equation
    y = water.cp*time;
    z = h(300 + time, water);
  end M;
end P;
