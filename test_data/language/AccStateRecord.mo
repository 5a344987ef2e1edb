// Records inherited through packages: the partial medium declares its state
// record, and its functions name it plainly; each medium that extends the
// partial package inherits the record with the functions, so a component
// with a replaceable Medium declares `Medium.ThermodynamicState` and builds
// one with `Medium.ThermodynamicState(p = ..., h = ...)`, looked up through
// the redeclared package.
encapsulated package AccStateRecord
  import B = Base;
  import SI = Base.Units;

  package Media
    partial package PartialLiquid
      constant SI.SpecificHeatCapacity cp;
      constant SI.Temperature T_ref = 273.15;
      record ThermodynamicState
        Real p(unit = "Pa");
        Real h(unit = "J/kg");
      end ThermodynamicState;
      function setState_pT
        input Real p(unit = "Pa");
        input SI.Temperature T;
        output ThermodynamicState state;
      algorithm
        state := ThermodynamicState(p = p, h = cp*(T - T_ref));
      end setState_pT;
      function temperature
        input ThermodynamicState state;
        output SI.Temperature T;
      algorithm
        T := T_ref + state.h/cp;
      end temperature;
    end PartialLiquid;
    package Water
      extends PartialLiquid(cp = 4184);
    end Water;
    package Oil
      extends PartialLiquid(cp = 1900);
    end Oil;
  end Media;

  model Vessel "A liquid heated at a constant rate; its temperature read through the state record"
    replaceable package Medium = Media.Water constrainedby Media.PartialLiquid;
    parameter SI.Mass m = 1 "Liquid mass";
    parameter SI.HeatFlowRate Q = 100 "Heater power";
    B.ContinuousState h(unit = "J/kg", start = 20000) "Specific enthalpy";
    Medium.ThermodynamicState state = Medium.setState_pT(1e5, 300) "The state at 1 bar and 300 K";
    SI.Temperature T "Liquid temperature";
  equation
    T = Medium.temperature(Medium.ThermodynamicState(p = 1e5, h = h));
    der(h) = Q/m;
  end Vessel;

  model TwoVessels "The same vessel with two media"
    Vessel w;
    Vessel o(redeclare package Medium = Media.Oil);
  end TwoVessels;
end AccStateRecord;
