// Functions through a replaceable package: a partial liquid declares
// partial functions of its constants; Water and Oil implement them
// (`redeclare function extends`) over their own constants, and a vessel
// with a replaceable Medium calls `Medium.temperature(h)`. Each vessel's
// specialisation calls its medium's functions.
encapsulated package AccMediumFunctions
  import B = Base;
  import SI = Base.Units;

  package Media "Constant-property liquids with their state functions"
    partial package PartialLiquid
      constant SI.SpecificHeatCapacity cp;
      constant SI.Temperature T_ref = 273.15 "Temperature at which h = 0";

      replaceable partial function specificEnthalpy "h(T)"
        input SI.Temperature T;
        output Real h(unit = "J/kg");
      end specificEnthalpy;

      replaceable partial function temperature "T(h)"
        input Real h(unit = "J/kg");
        output SI.Temperature T;
      end temperature;

      function heatCapacity "C = m*cp, inherited: each liquid's uses its cp"
        input SI.Mass m;
        output Real C(unit = "J/K");
      algorithm
        C := m*cp;
      end heatCapacity;
    end PartialLiquid;

    package Water
      extends PartialLiquid(cp = 4184);

      redeclare function extends specificEnthalpy "h = cp*(T - T_ref)"
      algorithm
        h := cp*(T - T_ref);
      end specificEnthalpy;

      redeclare function extends temperature "T = T_ref + h/cp"
      algorithm
        T := T_ref + h/cp;
      end temperature;
    end Water;

    package Oil
      extends PartialLiquid(cp = 1900);

      redeclare function extends specificEnthalpy "h = cp*(T - T_ref)"
      algorithm
        h := cp*(T - T_ref);
      end specificEnthalpy;

      redeclare function extends temperature "T = T_ref + h/cp"
      algorithm
        T := T_ref + h/cp;
      end temperature;
    end Oil;
  end Media;

  model Vessel "Heated vessel whose liquid's specific enthalpy is the state"
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    parameter SI.Mass m = 10 "Liquid mass";
    parameter SI.HeatFlowRate Q = 500 "Heater power";
    parameter SI.ThermalConductance G = 20 "Loss to the surroundings";
    parameter SI.Temperature T_amb = 293.15 "Surroundings";
    B.ContinuousState h(unit = "J/kg", start = Medium.specificEnthalpy(293.15)) "Specific enthalpy";
    SI.Temperature T "Liquid temperature";
    Real C(unit = "J/K") "Heat capacity of the liquid";
  equation
    T = Medium.temperature(h);
    C = Medium.heatCapacity(m);
    der(h) = (Q - G*(Medium.temperature(h) - T_amb))/m;
  end Vessel;

  model TwoVessels "The same vessel class with water and with oil"
    Vessel w;
    Vessel o(redeclare package Medium = Media.Oil);
  end TwoVessels;

end AccMediumFunctions;
