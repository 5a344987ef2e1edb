encapsulated package Clk2 "Partitions of one base clock read through subSample/superSample, and clocked counters that name no clock"
  import B = Base;

  model Conversions "Two partitions of one base clock reading each other through the sub-clock conversions"
    parameter Real Ts = 0.1 "Interval of the fast partition";
    parameter Integer f = 3 "The slow partition ticks at every f-th fast tick";
    Real a "time at the fast ticks";
    Real b "2*time at the slow ticks";
    Real c1 "At the slow ticks: b minus a at that tick";
    Real c2 "At the fast ticks: a minus b of the last slow tick";
    Real c1H, c2H;
  equation
    a = sample(time, Clock(Ts));
    b = sample(2*time, subSample(Clock(Ts), f));
    c1 = b - subSample(a, f);
    c2 = a - superSample(b, f);
    c1H = hold(c1);
    c2H = hold(c2);
  end Conversions;

  model Cascade "A mass under a two-rate cascade: a position loop every f*Ts sets the speed of a PI speed loop every Ts"
    parameter Real m = 1 "Mass";
    parameter Real d = 0.5 "Viscous friction";
    parameter Real Ts = 0.01 "Interval of the speed loop";
    parameter Integer f = 5 "The position loop ticks at every f-th tick of the speed loop";
    parameter Real Kx = 2 "Position gain";
    parameter Real Kv = 20 "Speed gain";
    parameter Real Ki = 50 "Speed integral gain";
    parameter Real xref = 1 "Position setpoint";
    B.ContinuousState x(start = 0) "Position";
    B.ContinuousState v(start = 0) "Speed";
    Real xk "Position, at the slow ticks";
    Real vsp "Speed setpoint, at the slow ticks";
    Real vk "Speed, at the fast ticks";
    Real ev "Speed error, at the fast ticks";
    Real I(start = 0) "Integral of the speed error, at the fast ticks";
    Real Fk "Force, at the fast ticks";
    Real evSlow "The speed error seen by the position loop, at the slow ticks";
    Real F "Force, held";
    Real vspH "Speed setpoint, held";
    Real evSlowH "evSlow, held";
  equation
    xk = sample(x, subSample(Clock(Ts), f));
    vsp = Kx*(xref - xk);
    vk = sample(v, Clock(Ts));
    ev = superSample(vsp, f) - vk;
    I = previous(I) + Ts*ev;
    Fk = Kv*ev + Ki*I;
    evSlow = subSample(ev, f);
    F = hold(Fk);
    vspH = hold(vsp);
    evSlowH = hold(evSlow);
    der(x) = v;
    m*der(v) = F - d*v;
  end Cascade;

  model DelayedLag "A sampled lag that acts from the first tick at or after t0: the ticks counted in clocked Integers"
    parameter Real Ts = 0.1;
    parameter Real t0 = 0.25 "From the first tick at or after t0 on the lag follows x";
    parameter Real a = 0.8;
    parameter Real T(unit = "s") = 0.5;
    B.ContinuousState x(start = 1);
    Integer n(start = -1) "Ticks before this one: 0 at the first";
    Integer m(start = 0) "The same, counted with firstTick()";
    Real dt(unit = "s") "The interval";
    Real y(start = 0) "At the ticks";
    Real yHeld "y from one tick to the next";
    Real nHeld, mHeld;
    Real dtHeld(unit = "s");
  equation
    n = previous(n) + 1;
    m = if firstTick() then 0 else previous(m) + 1;
    dt = interval();
    y = if n*dt >= t0 then a*previous(y) + (1 - a)*sample(x, Clock(Ts)) else previous(y);
    yHeld = hold(y);
    nHeld = hold(n);
    mHeld = hold(m);
    dtHeld = hold(dt);
    T*der(x) = 1 - x + yHeld;
  end DelayedLag;
end Clk2;
