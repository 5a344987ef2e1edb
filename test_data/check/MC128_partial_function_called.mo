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
    package Oil "does not implement temperature"
      extends PartialLiquid(cp = 1900);
    end Oil;
  end Media;
  block Probe
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    input Real h(unit = "J/kg");
    output Real T(unit = "K");
  equation
    T = Medium.temperature(h);
  end Probe;
  block OilProbe
    input Real h(unit = "J/kg");
    output Real T(unit = "K");
  equation
    T = Media.Oil.temperature(h); // <- MC128
  end OilProbe;
end P;
