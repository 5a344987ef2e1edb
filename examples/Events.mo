// Hybrid models under the methodology (DESIGN §2.2c): `when` equations on
// conditions of a class's own values, `pre`, and `reinit` of the class's own
// states. Three of them are the FMI community's reference models
// (Reference-FMUs' BouncingBall, Stair and Feedthrough) written in Modelica;
// their event times have closed forms (fmu-tests/references/
// event_references.py). Load it after Base.mo and Signals.mo.
encapsulated package Events "Hybrid models: when, pre and reinit in local form"
  import B = Base;
  import SI = Base.Units;
  import S = Signals;

  model BouncingBall "A ball dropped from h0 bounces on the ground, losing speed at each impact, until it lies still"
    parameter SI.Acceleration g = -9.81 "Gravity acting on the ball";
    parameter Real e(unit = "1") = 0.7 "Coefficient of restitution";
    parameter SI.Velocity v_min = 0.1 "Speed after an impact below which the ball stays on the ground";
    parameter SI.Length h0 = 1 "Height the ball is dropped from";
    B.ContinuousState h(start = h0, unit = "m") "Height of the ball";
    B.ContinuousState v(start = 0, unit = "m/s") "Velocity of the ball";
    Boolean flying(start = true) "The ball is in the air";
    Integer impacts(start = 0) "Impacts so far";
  equation
    // At an impact the ball rebounds with e times its speed, or stays on
    // the ground when that is below v_min.
    when h <= 0 then
      flying = -e*v >= v_min;
      impacts = pre(impacts) + 1;
      reinit(v, if -e*v >= v_min then -e*v else 0);
    end when;
    der(h) = v;
    der(v) = if flying then g else 0;
    annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-08, Interval = 0.01));
  end BouncingBall;

  model Stair "An Integer counter that a time event raises every second, from 1 until it reaches 10"
    parameter SI.Time step = 1 "Time between two increments";
    parameter Integer last = 10 "The simulation ends when the counter reaches this";
    output Integer counter(start = 1) "The stair signal";
  protected
    discrete SI.Time next(start = step) "Time of the next increment";
  equation
    when time >= pre(next) then
      counter = pre(counter) + 1;
      next = pre(next) + step;
    end when;
    when counter >= last then
      terminate("the counter has reached its last value");
    end when;
    annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-08, Interval = 0.2));
  end Stair;

  model Feedthrough "Real, Integer and Boolean inputs passed to outputs, and a counter of the Boolean input's rising edges"
    input Real real_in "Real input";
    input Integer int_in "Integer input";
    input Boolean bool_in "Boolean input";
    output Real real_out "The Real input";
    output Integer int_out "The Integer input";
    output Boolean bool_out "The Boolean input";
    output Integer rises(start = 0) "Times the Boolean input has become true";
  equation
    real_out = real_in;
    int_out = int_in;
    bool_out = bool_in;
    when bool_in then
      rises = pre(rises) + 1;
    end when;
    annotation(experiment(StartTime = 0, StopTime = 2, Tolerance = 1e-08, Interval = 0.01));
  end Feedthrough;

  model PulseCounter "Boolean pulses counted by an Integer counter, through Boolean and Integer connectors"
    S.Sources.BooleanPulse pulse(width = 0.3, period = 1, startTime = 0.25);
    S.Logical.Counter counter;
    S.Logical.Not inverted;
    S.Logical.Counter falls "Counts the falling edges of the pulses";
    output Integer pulses "Pulses so far";
  equation
    connect(pulse.y, counter.u);
    connect(pulse.y, inverted.u);
    connect(inverted.y, falls.u);
    pulses = counter.y;
    annotation(experiment(StartTime = 0, StopTime = 5, Tolerance = 1e-08, Interval = 0.05));
  end PulseCounter;

end Events;
