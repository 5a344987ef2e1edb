within ThermoFluidStream;
package Media "Media: replaceable packages of a state record, constants and state functions"

  // A medium is a package that extends PartialMedium, as in the Modelica
  // Standard Library's media: it gives the constants and implements the
  // partial functions (`redeclare function extends f ... end f;`), which
  // read the medium's constants by their plain names. A component declares
  // `replaceable package Medium = ... constrainedby Media.PartialMedium`
  // and calls `Medium.temperature(Medium.setState_phX(p, h))`; each
  // medium's function compiles once, under its own C symbol.
  //
  // A function that cannot evaluate a state (a gas at a non-positive density
  // or temperature) leaves its output unassigned: the FMU then stops with a
  // message that names the calling component and the function, instead of
  // going on with a NaN. A liquid implements no p(d, u): a gas volume
  // specialised to a liquid is refused at the call (MC128).

  partial package PartialMedium "The state record, the constants every medium gives, and the functions it implements"
    constant SI.SpecificHeatCapacity cp "Specific heat capacity at constant pressure";
    constant Units.GasConstant R "Specific gas constant; 0 for an incompressible liquid";
    constant SI.Density rho "Density of an incompressible liquid; unused for a gas";
    constant SI.Temperature T_ref "Temperature at which h = 0";
    constant Units.DynamicViscosity mu "Dynamic viscosity";

    record ThermodynamicState "The independent variables of a one-substance medium's state"
      Units.AbsolutePressure p "Pressure";
      Units.SpecificEnthalpy h "Specific enthalpy";
    end ThermodynamicState;

    // The state from the variables a component has: the same for every
    // medium of this form, so inherited, each specialised to the medium's
    // constants. A Lite medium is one substance: no mass fractions X.

    function setState_phX "The state at pressure p and specific enthalpy h"
      input Units.AbsolutePressure p;
      input Units.SpecificEnthalpy h;
      output PartialMedium.ThermodynamicState state;
    algorithm
      state := PartialMedium.ThermodynamicState(p = p, h = h);
    end setState_phX;

    function setState_pTX "The state at pressure p and temperature T: h = cp*(T - T_ref)"
      input Units.AbsolutePressure p;
      input SI.Temperature T;
      output PartialMedium.ThermodynamicState state;
    algorithm
      state := PartialMedium.ThermodynamicState(p = p, h = cp*(T - T_ref));
    end setState_pTX;

    function pressure "p of a state"
      input PartialMedium.ThermodynamicState state;
      output Units.AbsolutePressure p;
    algorithm
      p := state.p;
    end pressure;

    function specificEnthalpy "h of a state"
      input PartialMedium.ThermodynamicState state;
      output Units.SpecificEnthalpy h;
    algorithm
      h := state.h;
    end specificEnthalpy;

    // What each medium computes its own way.

    replaceable partial function temperature "T of a state"
      input PartialMedium.ThermodynamicState state;
      output SI.Temperature T;
    end temperature;

    replaceable partial function density "d of a state"
      input PartialMedium.ThermodynamicState state;
      output SI.Density d;
    end density;

    replaceable partial function specificInternalEnergy "u of a state"
      input PartialMedium.ThermodynamicState state;
      output Units.SpecificInternalEnergy u;
    end specificInternalEnergy;

    replaceable partial function dynamicViscosity "mu of a state"
      input PartialMedium.ThermodynamicState state;
      output Units.DynamicViscosity eta;
    end dynamicViscosity;

    // What a volume needs: its balances give mass and energy per volume and
    // per mass.

    replaceable partial function specificEnthalpy_pu "h(p, u), the inverse of u(p, h)"
      input Units.AbsolutePressure p;
      input Units.SpecificInternalEnergy u;
      output Units.SpecificEnthalpy h;
    end specificEnthalpy_pu;

    replaceable partial function pressure_du "p(d, u)"
      input SI.Density d;
      input Units.SpecificInternalEnergy u;
      output Units.AbsolutePressure p;
    end pressure_du;
  end PartialMedium;

  package SimpleAir "Ideal gas with constant cp: h = cp*(T - 298.15), p = d*R*T"
    extends PartialMedium(cp = 1005.45, R = 287.05, rho = 0, T_ref = 298.15, mu = 1.82e-5);

    redeclare function extends temperature "T = T_ref + h/cp; no value at or below 0 K"
    algorithm
      if T_ref + state.h/cp > 0 then
        T := T_ref + state.h/cp;
      end if;
    end temperature;

    redeclare function extends density "d = p/(R*T); no value for p <= 0 or T <= 0"
    algorithm
      if state.p > 0 and T_ref + state.h/cp > 0 then
        d := state.p/(R*(T_ref + state.h/cp));
      end if;
    end density;

    redeclare function extends specificInternalEnergy "u = h - R*T"
    algorithm
      u := state.h - R*(T_ref + state.h/cp);
    end specificInternalEnergy;

    redeclare function extends dynamicViscosity "Constant viscosity"
    algorithm
      eta := mu;
    end dynamicViscosity;

    redeclare function extends specificEnthalpy_pu "T = (u + cp*T_ref)/(cp - R), h = cp*(T - T_ref)"
    algorithm
      h := cp*((u + cp*T_ref)/(cp - R) - T_ref);
    end specificEnthalpy_pu;

    redeclare function extends pressure_du "p = d*R*T; no value at d <= 0 or T <= 0"
    algorithm
      if d > 0 and (u + cp*T_ref)/(cp - R) > 0 then
        p := d*R*((u + cp*T_ref)/(cp - R));
      end if;
    end pressure_du;
  end SimpleAir;

  package SimpleLiquidWater "Incompressible liquid with constant cp: h = cp*(T - 273.15), u = h - p/rho"
    extends PartialMedium(cp = 4184, R = 0, rho = 995.586, T_ref = 273.15, mu = 1e-3);

    redeclare function extends temperature "T = T_ref + h/cp; no value at or below 0 K"
    algorithm
      if T_ref + state.h/cp > 0 then
        T := T_ref + state.h/cp;
      end if;
    end temperature;

    redeclare function extends density "Incompressible: d = rho"
    algorithm
      d := rho;
    end density;

    redeclare function extends specificInternalEnergy "u = h - p/rho"
    algorithm
      u := state.h - state.p/rho;
    end specificInternalEnergy;

    redeclare function extends dynamicViscosity "Constant viscosity"
    algorithm
      eta := mu;
    end dynamicViscosity;

    redeclare function extends specificEnthalpy_pu "h = u + p/rho"
    algorithm
      h := u + p/rho;
    end specificEnthalpy_pu;
  end SimpleLiquidWater;

end Media;
