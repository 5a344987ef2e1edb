encapsulated package S
  import SI = Base.Units;
  package Media
    partial package PartialLiquid
      constant SI.SpecificHeatCapacity cp;
    end PartialLiquid;
    package Water
      extends PartialLiquid(cp = 4184);
    end Water;
    package Oil
      extends PartialLiquid(cp = 1900);
    end Oil;
  end Media;
  block Pipe
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    output Real c(unit = "J/(kg.K)");
  equation
    c = Medium.cp;
  end Pipe;
  block Vessel
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    Pipe pipe(redeclare package Medium = Medium);
    output Real c(unit = "J/(kg.K)");
  equation
    c = Medium.cp;
  end Vessel;
  model Three
    Vessel w;
    Vessel w2(redeclare package Medium = Media.Water);
    Vessel a(redeclare package Medium = Media.Oil);
    Vessel b(redeclare package Medium = Media.Oil);
  end Three;
end S;
