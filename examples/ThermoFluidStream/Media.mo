within ThermoFluidStream;
package Media "Media: replaceable packages of constants and of the functions of (p, h), (p, T), (p, u), (d, u)"

  // A medium is a package that extends PartialMedium: it gives the constants
  // and implements the partial state functions (`redeclare function extends
  // f ... end f;`), which read the medium's constants by their plain names.
  // A component declares `replaceable package Medium = ... constrainedby
  // Media.PartialMedium` and calls `Medium.temperature_ph(p, h)`; each
  // medium's function compiles once, under its own C symbol.
  //
  // A function that cannot evaluate a state (a gas at a non-positive density
  // or temperature) leaves its output unassigned: the FMU then stops with a
  // message that names the calling component and the function, instead of
  // going on with a NaN. A liquid implements no p(d, u): a gas volume
  // specialised to a liquid is refused at the call (MC128).

  partial package PartialMedium "The constants every medium gives, and the state functions it implements"
    constant SI.SpecificHeatCapacity cp "Specific heat capacity at constant pressure";
    constant Units.GasConstant R "Specific gas constant; 0 for an incompressible liquid";
    constant SI.Density rho "Density of an incompressible liquid; unused for a gas";
    constant SI.Temperature T_ref "Temperature at which h = 0";
    constant Units.DynamicViscosity mu "Dynamic viscosity";

    replaceable partial function specificEnthalpy_pT "h(p, T)"
      input Units.AbsolutePressure p;
      input SI.Temperature T;
      output Units.SpecificEnthalpy h;
    end specificEnthalpy_pT;

    replaceable partial function temperature_ph "T(p, h)"
      input Units.AbsolutePressure p;
      input Units.SpecificEnthalpy h;
      output SI.Temperature T;
    end temperature_ph;

    replaceable partial function density_ph "d(p, h)"
      input Units.AbsolutePressure p;
      input Units.SpecificEnthalpy h;
      output SI.Density d;
    end density_ph;

    replaceable partial function specificInternalEnergy_ph "u(p, h)"
      input Units.AbsolutePressure p;
      input Units.SpecificEnthalpy h;
      output Units.SpecificInternalEnergy u;
    end specificInternalEnergy_ph;

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

    replaceable partial function dynamicViscosity_ph "mu(p, h)"
      input Units.AbsolutePressure p;
      input Units.SpecificEnthalpy h;
      output Units.DynamicViscosity eta;
    end dynamicViscosity_ph;
  end PartialMedium;

  package SimpleAir "Ideal gas with constant cp: h = cp*(T - 298.15), p = d*R*T"
    extends PartialMedium(cp = 1005.45, R = 287.05, rho = 0, T_ref = 298.15, mu = 1.82e-5);

    redeclare function extends specificEnthalpy_pT "h = cp*(T - T_ref)"
    algorithm
      h := cp*(T - T_ref);
    end specificEnthalpy_pT;

    redeclare function extends temperature_ph "T = T_ref + h/cp; no value at or below 0 K"
    algorithm
      if T_ref + h/cp > 0 then
        T := T_ref + h/cp;
      end if;
    end temperature_ph;

    redeclare function extends density_ph "d = p/(R*T); no value for p <= 0 or T <= 0"
    algorithm
      if p > 0 and T_ref + h/cp > 0 then
        d := p/(R*(T_ref + h/cp));
      end if;
    end density_ph;

    redeclare function extends specificInternalEnergy_ph "u = h - R*T"
    algorithm
      u := h - R*(T_ref + h/cp);
    end specificInternalEnergy_ph;

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

    redeclare function extends dynamicViscosity_ph "Constant viscosity"
    algorithm
      eta := mu;
    end dynamicViscosity_ph;
  end SimpleAir;

  package SimpleLiquidWater "Incompressible liquid with constant cp: h = cp*(T - 273.15), u = h - p/rho"
    extends PartialMedium(cp = 4184, R = 0, rho = 995.586, T_ref = 273.15, mu = 1e-3);

    redeclare function extends specificEnthalpy_pT "h = cp*(T - T_ref)"
    algorithm
      h := cp*(T - T_ref);
    end specificEnthalpy_pT;

    redeclare function extends temperature_ph "T = T_ref + h/cp; no value at or below 0 K"
    algorithm
      if T_ref + h/cp > 0 then
        T := T_ref + h/cp;
      end if;
    end temperature_ph;

    redeclare function extends density_ph "Incompressible: d = rho"
    algorithm
      d := rho;
    end density_ph;

    redeclare function extends specificInternalEnergy_ph "u = h - p/rho"
    algorithm
      u := h - p/rho;
    end specificInternalEnergy_ph;

    redeclare function extends specificEnthalpy_pu "h = u + p/rho"
    algorithm
      h := u + p/rho;
    end specificEnthalpy_pu;

    redeclare function extends dynamicViscosity_ph "Constant viscosity"
    algorithm
      eta := mu;
    end dynamicViscosity_ph;
  end SimpleLiquidWater;

end Media;
