package P
  package Media
    partial package PartialLiquid
      constant Real cp(unit = "J/(kg.K)");
    end PartialLiquid;
    package Water
      extends PartialLiquid(cp = 4184);
    end Water;
    package Heavy
      constant Real cp(unit = "J/K") = 5000;
    end Heavy;
  end Media;
  block Heat
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    parameter Real m(unit = "kg") = 2;
    output Real C(unit = "J/K");
  equation
    C = m*Medium.cp;
  end Heat;
  model Two
    Heat w;
    Heat h(redeclare package Medium = Media.Heavy); // <- MC082
  end Two;
end P;
