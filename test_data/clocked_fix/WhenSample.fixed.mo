encapsulated package WhenSample "Periodic when-equations that check --fix rewrites as clocked partitions"
  import B = Base;

  model SampledP "A first-order plant under a sampled proportional controller"
    parameter Real a = 2, b = 1, K = 4, r = 1, Ts = 0.1;
    B.ContinuousState x(start = 0);
    Real u "Control, held";
  equation
    u = K*(r - sample(x, Clock(Ts)));
    der(x) = -a*x + b*hold(u);
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
    e = w_ref - sample(w, Clock(Ts));
    // The integral by the forward rectangle rule
    I = previous(I) + Ts*e;
    v = Kp*e + Ki*I;
    der(i) = (hold(v) - R*i - kt*w)/Lm;
    der(w) = (kt*i - d*w)/J;
  end MotorPI;

  model Thermostat "A sampled thermostat with hysteresis, every n seconds"
    parameter Integer n = 2;
    parameter Real lo = 19, hi = 21, tau = 600, Tout = 10, Theat = 40;
    B.ContinuousState T(start = 15);
    Boolean on(start = true) "Heater on, at the ticks";
    Real load = if hold(on) then 1 else 0;
    Clock clock = Clock(n, 1);
  equation
    on = if sample(T, clock) > hi then false elseif sample(T, clock) < lo then true else previous(on);
    der(T) = (Tout - T + load*(Theat - Tout))/tau;
  end Thermostat;

  model TwoBlocks "Two periodic when-equations of one interval"
    parameter Real Ts = 0.5, k = 3;
    B.ContinuousState x(start = 1);
    Real y1, y2;
  equation
    y1 = k*sample(x, Clock(2*Ts));
    y2 = y1 + previous(y2);
    der(x) = -x + hold(y1) - hold(y2)/10;
  end TwoBlocks;
end WhenSample;
