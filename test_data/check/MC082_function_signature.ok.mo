package P
  package Media
    partial package PartialLiquid
      constant Real cp(unit = "J/(kg.K)");
      replaceable partial function temperature "T(h)"
        input Real h(unit = "J/kg");
        output Real T(unit = "K");
      end temperature;
    end PartialLiquid;
    package Water
      extends PartialLiquid(cp = 4184);
      redeclare function extends temperature
      algorithm
        T := 273.15 + h/cp;
      end temperature;
    end Water;
    package Odd "its own temperature(h)"
      constant Real cp(unit = "J/(kg.K)") = 1900;
      function temperature
        input Real h(unit = "J/kg");
        output Real T(unit = "K");
      algorithm
        T := 273.15 + h/cp;
      end temperature;
    end Odd;
  end Media;
  block Probe
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    parameter Real h(unit = "J/kg") = 1e5;
    output Real T(unit = "K");
  equation
    T = Medium.temperature(h);
  end Probe;
  model Two
    Probe w;
    Probe o(redeclare package Medium = Media.Odd);
  end Two;
end P;
