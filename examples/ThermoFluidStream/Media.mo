within ThermoFluidStream;
package Media "Media: packages of constants, and the functions of (p, h), (p, T), (p, u), (rho, u) over them"

  // A medium is a package of constants (PartialMedium). The state functions
  // below take the medium's constants as their last arguments, in the order
  // (cp, R, rho, T_ref), so a component writes
  //   Media.temperature_ph(p, h, Medium.cp, Medium.R, Medium.rho, Medium.T_ref)
  // with its replaceable package Medium. (mofmu does not yet look up a
  // function through a replaceable package, `Media.temperature_ph(p, h, Medium.cp, Medium.R, Medium.rho, Medium.T_ref)`,
  // nor admit partial functions; docs/thermofluid.md.)
  //
  // R > 0 marks an ideal gas (rho unused); R = 0 an incompressible liquid of
  // density rho. A function that cannot evaluate a state (a gas at a
  // non-positive density or temperature, p(rho, u) of a liquid) leaves its
  // output unassigned: the FMU then stops with a message that names the
  // calling component and the function, instead of going on with a NaN.

  function specificEnthalpy_pT "h = cp*(T - T_ref)"
    input Units.AbsolutePressure p;
    input SI.Temperature T;
    input SI.SpecificHeatCapacity cp;
    input Units.GasConstant R;
    input SI.Density rho;
    input SI.Temperature T_ref;
    output Units.SpecificEnthalpy h;
  algorithm
    h := cp*(T - T_ref);
  end specificEnthalpy_pT;

  function temperature_ph "T = T_ref + h/cp; no value at or below 0 K"
    input Units.AbsolutePressure p;
    input Units.SpecificEnthalpy h;
    input SI.SpecificHeatCapacity cp;
    input Units.GasConstant R;
    input SI.Density rho;
    input SI.Temperature T_ref;
    output SI.Temperature T;
  protected
    SI.Temperature T_trial;
  algorithm
    T_trial := T_ref + h/cp;
    if T_trial > 0 then
      T := T_trial;
    end if;
  end temperature_ph;

  function density_ph "Gas: p/(R*T), no value for p <= 0 or T <= 0; liquid: rho"
    input Units.AbsolutePressure p;
    input Units.SpecificEnthalpy h;
    input SI.SpecificHeatCapacity cp;
    input Units.GasConstant R;
    input SI.Density rho;
    input SI.Temperature T_ref;
    output SI.Density d;
  protected
    SI.Temperature T;
  algorithm
    if R > 0 then
      T := T_ref + h/cp;
      if p > 0 and T > 0 then
        d := p/(R*T);
      end if;
    else
      d := rho;
    end if;
  end density_ph;

  function specificInternalEnergy_ph "u = h - p/rho (gas: h - R*T)"
    input Units.AbsolutePressure p;
    input Units.SpecificEnthalpy h;
    input SI.SpecificHeatCapacity cp;
    input Units.GasConstant R;
    input SI.Density rho;
    input SI.Temperature T_ref;
    output Units.SpecificInternalEnergy u;
  algorithm
    if R > 0 then
      u := h - R*(T_ref + h/cp);
    else
      u := h - p/rho;
    end if;
  end specificInternalEnergy_ph;

  function specificEnthalpy_pu "The inverse of u(p, h)"
    input Units.AbsolutePressure p;
    input Units.SpecificInternalEnergy u;
    input SI.SpecificHeatCapacity cp;
    input Units.GasConstant R;
    input SI.Density rho;
    input SI.Temperature T_ref;
    output Units.SpecificEnthalpy h;
  protected
    SI.Temperature T;
  algorithm
    if R > 0 then
      T := (u + cp*T_ref)/(cp - R);
      h := cp*(T - T_ref);
    else
      h := u + p/rho;
    end if;
  end specificEnthalpy_pu;

  function pressure_du "Gas: p = d*R*T, no value at d <= 0 or T <= 0; a liquid has none"
    input SI.Density d;
    input Units.SpecificInternalEnergy u;
    input SI.SpecificHeatCapacity cp;
    input Units.GasConstant R;
    input SI.Density rho;
    input SI.Temperature T_ref;
    output Units.AbsolutePressure p;
  protected
    SI.Temperature T;
  algorithm
    if R > 0 then
      T := (u + cp*T_ref)/(cp - R);
      if d > 0 and T > 0 then
        p := d*R*T;
      end if;
    end if;
  end pressure_du;

  partial package PartialMedium "The constants every medium gives"
    constant SI.SpecificHeatCapacity cp "Specific heat capacity at constant pressure";
    constant Units.GasConstant R "Specific gas constant; 0 for an incompressible liquid";
    constant SI.Density rho "Density of an incompressible liquid; unused for a gas";
    constant SI.Temperature T_ref "Temperature at which h = 0";
    constant Units.DynamicViscosity mu "Dynamic viscosity";
  end PartialMedium;

  package SimpleAir "Ideal gas with constant cp: h = cp*(T - 298.15), p = rho*R*T"
    extends PartialMedium(cp = 1005.45, R = 287.05, rho = 0, T_ref = 298.15, mu = 1.82e-5);
  end SimpleAir;

  package SimpleLiquidWater "Incompressible liquid with constant cp: h = cp*(T - 273.15), u = h - p/rho"
    extends PartialMedium(cp = 4184, R = 0, rho = 995.586, T_ref = 273.15, mu = 1e-3);
  end SimpleLiquidWater;

end Media;
