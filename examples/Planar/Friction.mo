within Planar;
encapsulated package Friction "Regularised dry-friction characteristics"
  import SI = Base.Units;
  import Planar.Interfaces;

  // A dry-friction law relates a slip velocity to a friction coefficient. The
  // ideal law jumps at zero slip; here it is regularised so that it stays
  // continuous with a continuous first derivative everywhere, and every
  // branch sits under noEvent: the characteristic never raises an event and
  // an error-controlled integrator resolves its steep part like any other
  // stiff term.

  block TripleS "Point-symmetric friction characteristic: adhesion peak mu_A at x_adhesion, sliding value mu_S from x_slide on"
    // The published planar library's triple-S function: an odd cubic from 0
    // to the peak (slope 1.5*mu_A/x_adhesion at zero slip, flat at the peak),
    // a cubic S from the peak down to the sliding value (flat at both ends),
    // and the constant sliding value beyond x_slide. Each piece is the cubic
    // -0.5*u^3 + 1.5*u on [-1, 1], so the whole curve is continuously
    // differentiable.
    parameter Real mu_A = 0.5 "Friction coefficient at the adhesion peak";
    parameter Real mu_S = 0.3 "Friction coefficient when sliding";
    Interfaces.RealInput x "Slip velocity, in m/s";
    Interfaces.RealInput x_adhesion "Slip velocity of the adhesion peak (positive), in m/s";
    Interfaces.RealInput x_slide "Slip velocity from which on the contact slides (above x_adhesion), in m/s";
    Interfaces.RealOutput mu "Friction coefficient, with the sign of x";
  protected
    SI.Velocity a "Magnitude of the slip velocity";
    Real u_adhesion "Position on the adhesion cubic (1 at the peak)";
    Real u_transition "Position on the transition cubic (-1 at the peak, 1 at x_slide)";
    Real magnitude "Friction coefficient for the magnitude of the slip";
  equation
    a = noEvent(abs(x));
    u_adhesion = a/x_adhesion;
    u_transition = (2*a - x_adhesion - x_slide)/(x_slide - x_adhesion);
    magnitude = noEvent(if a < x_adhesion then mu_A*(1.5*u_adhesion - 0.5*u_adhesion^3)
      elseif a < x_slide then 0.5*(mu_A + mu_S) + 0.5*(mu_S - mu_A)*(1.5*u_transition - 0.5*u_transition^3)
      else mu_S);
    mu = noEvent(if x < 0 then -magnitude else magnitude);
  end TripleS;

end Friction;
