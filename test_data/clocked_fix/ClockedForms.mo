encapsulated package ClockedForms "The clocked built-ins the check phase admits (the snippets of the clocked language)"
  import B = Base;

  model SampledP "A first-order plant under a sampled proportional controller"
    parameter Real a = 2, b = 1, K = 4, r = 1, Ts = 0.1;
    B.ContinuousState x(start = 0);
    Real uk "Control, at the ticks";
    Real u "Control, held";
  equation
    uk = K*(r - sample(x, Clock(Ts)));
    u = hold(uk);
    der(x) = -a*x + b*u;
  end SampledP;

  model MotorPI "A DC motor under a discrete PI speed controller"
    parameter Real R = 1, Lm = 0.5, kt = 0.01, J = 0.01, d = 0.1;
    parameter Real Kp = 100, Ki = 200, w_ref = 1, Ts = 0.01;
    B.ContinuousState i(start = 0) "Current";
    B.ContinuousState w(start = 0) "Speed";
    Real e "Speed error, at the ticks";
    Real I(start = 0) "Integral of the error, at the ticks";
    Real vk "Voltage, at the ticks";
    Real v "Voltage, held";
  equation
    e = w_ref - sample(w, Clock(Ts));
    I = previous(I) + Ts*e;
    vk = Kp*e + Ki*I;
    v = hold(vk);
    der(i) = (v - R*i - kt*w)/Lm;
    der(w) = (kt*i - d*w)/J;
  end MotorPI;

  model Rates "A named base clock, its sub- and super-samples, interval() and firstTick()"
    parameter Integer counter = 1, resolution = 100, f = 4;
    B.ContinuousState x(start = 1);
    Clock c = Clock(counter, resolution);
    Real slow(start = 0), fast(start = 0), dt, n(start = 0);
    Boolean first, rising(start = false);
  equation
    slow = previous(slow) + sample(x, subSample(c, f));
    fast = sample(x, superSample(c, 2)) - previous(fast);
    dt = interval() + 0*sample(x, c);
    first = firstTick() and sample(x, c) > 0;
    rising = first and not previous(rising);
    n = if first then 0 else previous(n) + 1;
    der(x) = -x + hold(slow) - hold(fast) + hold(dt);
  end Rates;
end ClockedForms;
