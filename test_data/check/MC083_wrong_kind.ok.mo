// export: P.Two
package P
  package Media
    partial package PartialLiquid
      constant Real cp(unit = "J/(kg.K)");
    end PartialLiquid;
    package Water
      extends PartialLiquid(cp = 4184);
    end Water;
    package Oil
      extends PartialLiquid(cp = 1900);
    end Oil;
    package Gas
      constant Real R(unit = "J/(kg.K)") = 287;
    end Gas;
    package Crude
      constant Integer cp = 2000;
    end Crude;
  end Media;
  block Heat
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    package Fixed = Media.Water;
    parameter Real m(unit = "kg") = 2;
    output Real C(unit = "J/K");
  equation
    C = m*Medium.cp;
  end Heat;
  model Two
    Heat w;
    Heat o(redeclare package Medium = Media.Oil);
  end Two;
end P;
