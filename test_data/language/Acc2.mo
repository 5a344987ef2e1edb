// A replaceable medium package, redeclared per instance.
encapsulated package Acc2
  import B = Base;
  import SI = Base.Units;

  package Media "Constant-property liquids"
    partial package PartialLiquid
      constant SI.SpecificHeatCapacity cp;
      constant SI.Density rho;
    end PartialLiquid;
    package Water
      extends PartialLiquid(cp = 4184, rho = 995);
    end Water;
    package Oil
      extends PartialLiquid(cp = 1900, rho = 870);
    end Oil;
  end Media;

  model Vessel "Heated vessel that loses heat to its surroundings"
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    parameter SI.Volume V = 0.01 "Liquid volume";
    parameter SI.HeatFlowRate Q = 500 "Heater power";
    parameter SI.ThermalConductance G = 20 "Loss to the surroundings";
    parameter SI.Temperature T_amb = 293.15 "Surroundings";
    B.ContinuousState T(unit = "K", start = 293.15) "Liquid temperature";
  equation
    der(T) = (Q - G*(T - T_amb))/(Medium.rho*V*Medium.cp);
  end Vessel;

  model TwoVessels "The same vessel class with two media"
    Vessel w;
    Vessel a(redeclare package Medium = Media.Oil);
  end TwoVessels;

end Acc2;
