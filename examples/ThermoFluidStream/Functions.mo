within ThermoFluidStream;
package Functions "Pressure-loss laws and range guards"

  function linearQuadraticPressureLoss "dp = k*m + k2*m*|m|"
    input Units.MassFlowRate m_flow;
    input Real k(unit = "1/(m.s)") "Linear coefficient";
    input Real k2(unit = "1/(kg.m)") "Quadratic coefficient";
    output Units.Pressure dp;
  algorithm
    dp := k*m_flow + k2*m_flow*abs(m_flow);
  end linearQuadraticPressureLoss;

  function laminarPressureLoss "Hagen-Poiseuille: dp = 8*mu*l*m/(pi*rho*r^4)"
    input Units.MassFlowRate m_flow;
    input SI.Density rho;
    input Units.DynamicViscosity mu;
    input SI.Length r "Radius";
    input SI.Length l "Length";
    output Units.Pressure dp;
  algorithm
    dp := 8*mu*l*m_flow/(Modelica.Constants.pi*rho*r^4);
  end laminarPressureLoss;

  function laminarTurbulentPressureLoss "Cheng (2008): one friction-factor formula from laminar through transition to rough turbulent flow"
    input Units.MassFlowRate m_flow;
    input SI.Density rho;
    input Units.DynamicViscosity mu;
    input SI.Length r "Radius";
    input SI.Length l "Length";
    input SI.Length ks "Surface roughness";
    output Units.Pressure dp;
  protected
    SI.Velocity u "Mean velocity";
    Real Re(unit = "1") "Reynolds number, kept above zero";
    Real a(unit = "1") "Laminar weight";
    Real b(unit = "1") "Smooth-turbulent weight";
    Real lambdaRe(unit = "1") "Darcy friction factor times Re, finite at Re -> 0";
  algorithm
    u := m_flow/(Modelica.Constants.pi*r^2*rho);
    // The small offset keeps Re^(1 - a) and the logarithms defined at zero
    // flow, as in the published law.
    Re := abs(u)*rho*2*r/mu + 0.001;
    a := 1/(1 + (Re/2720)^9);
    b := 1/(1 + (Re/(160*2*r/ks))^2);
    if a < 1 then
      lambdaRe := 64^a*Re^(1 - a)*((1.8*log10(Re/6.8))^(2*(a - 1)*b)*(2*log10(3.7*2*r/ks))^(2*(a - 1)*(1 - b)));
    else
      // Deep in the laminar range a is 1 to machine precision and both
      // powers are x^0 = 1: the law is lambda*Re = 64. Taking that branch
      // keeps the derivative (which would take the logarithm of
      // 1.8*log10(Re/6.8) < 0 below Re = 6.8) defined.
      lambdaRe := 64;
    end if;
    dp := lambdaRe*l*mu*u/(8*r^2);
  end laminarTurbulentPressureLoss;

end Functions;
