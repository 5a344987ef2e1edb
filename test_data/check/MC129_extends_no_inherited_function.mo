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
      redeclare function extends temperatur // <- MC129
      algorithm
        T := 273.15 + h/cp;
      end temperatur;
    end Water;
  end Media;
end P;
