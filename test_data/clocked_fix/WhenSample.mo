encapsulated package WhenSample "Periodic when-equations that check --fix rewrites as clocked partitions"
  import B = Base;

  model SampledP "A first-order plant under a sampled proportional controller"
    parameter Real a = 2, b = 1, K = 4, r = 1, Ts = 0.1;
    B.ContinuousState x(start = 0);
    discrete Real u "Control, held";
  equation
    when sample(0, Ts) then
      u = K*(r - x);
    end when;
    der(x) = -a*x + b*u;
  end SampledP;

  model MotorPI "A DC motor under a discrete PI speed controller"
    parameter Real R = 1, Lm = 0.5, kt = 0.01, J = 0.01, d = 0.1;
    parameter Real Kp = 100, Ki = 200, w_ref = 1, Ts = 0.01;
    B.ContinuousState i(start = 0) "Current";
    B.ContinuousState w(start = 0) "Speed";
    Real e "Speed error, at the ticks";
    Real I(start = 0) "Integral of the error, at the ticks";
    Real v "Voltage";
  equation
    when sample(0, Ts) then
      e = w_ref - w;
      // The integral by the forward rectangle rule
      I = pre(I) + Ts*e;
      v = Kp*e + Ki*I;
    end when;
    der(i) = (v - R*i - kt*w)/Lm;
    der(w) = (kt*i - d*w)/J;
  end MotorPI;

  model Thermostat "A sampled thermostat with hysteresis, every n seconds"
    parameter Integer n = 2;
    parameter Real lo = 19, hi = 21, tau = 600, Tout = 10, Theat = 40;
    B.ContinuousState T(start = 15);
    Boolean on(start = true) "Heater on, at the ticks";
    Real load = if on then 1 else 0;
  equation
    when sample(0, n) then
      on = if T > hi then false elseif T < lo then true else pre(on);
    end when;
    der(T) = (Tout - T + load*(Theat - Tout))/tau;
  end Thermostat;

  model TwoBlocks "Two periodic when-equations of one interval"
    parameter Real Ts = 0.5, k = 3;
    B.ContinuousState x(start = 1);
    Real y1, y2;
  equation
    when sample(0, 2*Ts) then
      y1 = k*x;
    end when;
    when sample(0.0, 2 * Ts) then
      y2 = y1 + pre(y2);
    end when;
    der(x) = -x + y1 - y2/10;
  end TwoBlocks;
end WhenSample;
