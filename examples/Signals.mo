// Causal signal blocks: sources, continuous blocks, sampled (clocked) blocks
// and example systems. Interfaces, sources, continuous blocks, discrete blocks
// and examples are separate packages so that each one depends only on packages
// declared before it.
encapsulated package Signals "Causal signal blocks"
  import B = Base;
  import SI = Base.Units;

  package Interfaces "Signal connectors"
    connector RealInput = input Real;
    connector RealOutput = output Real;
    // Boolean and Integer signals cross connectors with assumed causality
    // like Real ones (DESIGN §2.2c): the output is determined by its class,
    // the input is known to the class that receives it. They change only at
    // events.
    connector BooleanInput = input Boolean;
    connector BooleanOutput = output Boolean;
    connector IntegerInput = input Integer;
    connector IntegerOutput = output Integer;
  end Interfaces;

  package Sources "Signal sources that depend on time only"

    block Constant "Constant output"
      parameter Real k = 1 "Value of the output";
      Interfaces.RealOutput y "Constant signal";
    equation
      y = k;
    end Constant;

    block Step "Jumps from offset to offset + height at startTime"
      parameter Real height = 1 "Height of the step";
      parameter Real offset = 0 "Output before the step";
      parameter SI.Time startTime = 0 "Time of the step";
      Interfaces.RealOutput y "Step signal";
    equation
      y = offset + (if time < startTime then 0 else height);
    end Step;

    block Sine "Sine wave that starts at startTime"
      parameter Real amplitude = 1 "Amplitude of the sine wave";
      parameter SI.Frequency freqHz = 1 "Frequency of the sine wave";
      parameter Real phase = 0 "Phase of the sine wave at startTime, in radians";
      parameter Real offset = 0 "Output before startTime and mean value after it";
      parameter SI.Time startTime = 0 "Time at which the sine wave starts";
      Interfaces.RealOutput y "Sine signal";
    protected
      parameter Real omega = 2*3.141592653589793*freqHz "Angular frequency, in rad/s";
    equation
      y = offset + (if time < startTime then 0 else amplitude*sin(omega*(time - startTime) + phase));
    end Sine;

    block Ramp "Rises linearly by height during duration, starting at startTime"
      parameter Real height = 1 "Height of the ramp";
      parameter SI.Time duration = 1 "Duration of the ramp (must be positive)";
      parameter Real offset = 0 "Output before the ramp";
      parameter SI.Time startTime = 0 "Time at which the ramp starts";
      Interfaces.RealOutput y "Ramp signal";
    equation
      y = offset + (if time < startTime then 0
        elseif time < startTime + duration then height*(time - startTime)/duration
        else height);
    end Ramp;

    block Pulse "Rectangular pulses of the published Pulse (amplitude for width % of every period from startTime), its first ten periods"
      // The published Pulse repeats forever; this language has no periodic
      // time event of a relation (no `when` or `sample(start, interval)`, no
      // event-generating floor or mod).
      // Each edge here is a relation of time with a parameter, so an exact
      // time event, and the block has the first ten periods' twenty edges;
      // from startTime + 10*period on it stays at offset.
      parameter Real amplitude = 1 "Height of the pulses";
      parameter Real width(unit = "1") = 50 "Width of a pulse in % of the period (above 0, below 100)";
      parameter SI.Time period = 1 "Time of one period (must be positive)";
      parameter Real offset = 0 "Output between the pulses";
      parameter SI.Time startTime = 0 "Start of the first pulse";
      Interfaces.RealOutput y "Pulse signal";
    protected
      parameter SI.Time T_width = period*width/100 "Duration of one pulse";
    equation
      y = offset + amplitude*(
        (if time < startTime then 0 else 1) - (if time < startTime + T_width then 0 else 1)
        + (if time < startTime + period then 0 else 1) - (if time < startTime + period + T_width then 0 else 1)
        + (if time < startTime + 2*period then 0 else 1) - (if time < startTime + 2*period + T_width then 0 else 1)
        + (if time < startTime + 3*period then 0 else 1) - (if time < startTime + 3*period + T_width then 0 else 1)
        + (if time < startTime + 4*period then 0 else 1) - (if time < startTime + 4*period + T_width then 0 else 1)
        + (if time < startTime + 5*period then 0 else 1) - (if time < startTime + 5*period + T_width then 0 else 1)
        + (if time < startTime + 6*period then 0 else 1) - (if time < startTime + 6*period + T_width then 0 else 1)
        + (if time < startTime + 7*period then 0 else 1) - (if time < startTime + 7*period + T_width then 0 else 1)
        + (if time < startTime + 8*period then 0 else 1) - (if time < startTime + 8*period + T_width then 0 else 1)
        + (if time < startTime + 9*period then 0 else 1) - (if time < startTime + 9*period + T_width then 0 else 1));
    end Pulse;

    block BooleanStep "Boolean signal that becomes true at startTime"
      parameter SI.Time startTime = 0 "Time at which the output becomes true";
      Interfaces.BooleanOutput y "False before startTime, true from then on";
    equation
      y = time >= startTime;
    end BooleanStep;

    block BooleanPulse "Boolean pulses: true during the first width seconds of every period from startTime, forever"
      // Every edge is a time event at a time the block keeps: `next` moves
      // on by the width or the rest of the period at each edge.
      parameter SI.Time width = 0.5 "Duration of one pulse (above 0, below the period)";
      parameter SI.Time period = 1 "Time of one period";
      parameter SI.Time startTime = 0 "Start of the first pulse";
      Interfaces.BooleanOutput y(start = false) "True during the pulses";
    protected
      discrete SI.Time next(start = startTime) "Time of the next edge";
    equation
      when time >= pre(next) then
        y = not pre(y);
        next = pre(next) + (if pre(y) then period - width else width);
      end when;
    end BooleanPulse;

  end Sources;

  package Continuous "Static and dynamic blocks with continuous signals"

    block Gain "Output is the input times a constant gain"
      parameter Real k(unit = "1") = 1 "Gain";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "Amplified signal";
    equation
      y = k*u;
    end Gain;

    block Add "Weighted sum of two inputs"
      parameter Real k1(unit = "1") = 1 "Weight of the first input";
      parameter Real k2(unit = "1") = 1 "Weight of the second input";
      Interfaces.RealInput u1 "First input";
      Interfaces.RealInput u2 "Second input";
      Interfaces.RealOutput y "k1*u1 + k2*u2";
    equation
      y = k1*u1 + k2*u2;
    end Add;

    block Feedback "Difference of a reference and a feedback signal"
      Interfaces.RealInput u1 "Reference";
      Interfaces.RealInput u2 "Feedback";
      Interfaces.RealOutput y "u1 - u2";
    equation
      y = u1 - u2;
    end Feedback;

    block Integrator "Output is the integral of the input times a gain"
      parameter Real k = 1 "Integrator gain";
      parameter Real y_start = 0 "Initial output";
      Interfaces.RealInput u "Integrated signal";
      Interfaces.RealOutput y "Integral of k*u";
      B.ContinuousState x(start = y_start) "Integrator state";
    equation
      y = x;
      der(x) = k*u;
    end Integrator;

    block FirstOrder "First-order lag: T*der(y) + y = k*u"
      parameter Real k = 1 "Static gain";
      parameter SI.Time T = 1 "Time constant (must be positive)";
      parameter Real y_start = 0 "Initial output";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "Lagged signal";
      B.ContinuousState x(start = y_start) "Lag state, equal to the output";
    equation
      y = x;
      der(x) = (k*u - x)/T;
    end FirstOrder;

    block PI "Proportional-integral controller: y = k*(x + u), der(x) = u/T"
      parameter Real k = 1 "Proportional gain";
      parameter SI.Time T = 1 "Integral time constant (must be positive)";
      parameter Real x_start = 0 "Initial integrator state";
      Interfaces.RealInput u "Control error";
      Interfaces.RealOutput y "Control signal";
      B.ContinuousState x(start = x_start) "Integrated control error divided by T";
    equation
      der(x) = u/T;
      y = k*(x + u);
    end PI;

    block SecondOrder "Second-order lag: der(y) = yd, der(yd) = w*(w*(k*u - y) - 2*D*yd)"
      // The low-pass filter y'' + 2*D*w*y' + w^2*y = k*w^2*u, at rest unless
      // y_start or yd_start say otherwise.
      parameter Real k = 1 "Static gain";
      parameter Real w(unit = "rad/s") = 1 "Angular frequency";
      parameter Real D(unit = "1") = 1 "Damping";
      parameter Real y_start = 0 "Initial output";
      parameter Real yd_start = 0 "Initial derivative of the output";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "Filtered signal";
      B.ContinuousState x(start = y_start) "Output";
      B.ContinuousState xd(start = yd_start) "Derivative of the output";
    equation
      y = x;
      der(x) = xd;
      der(xd) = w*(w*(k*u - x) - 2*D*xd);
    end SecondOrder;

  end Continuous;

  package Discrete "Sampled blocks: each holds its own periodic clock"
    // Each block reads its continuous-time input at the ticks of its own
    // clock, Clock(Ts): t = k*Ts from the start time, the first tick at the
    // start. Its clocked equations run at the ticks only, and its output is
    // held (hold) from one tick to the next, so the output is a
    // piecewise-constant, continuous-time signal. No clock crosses a
    // connector: connect these blocks like any other signal block, and set Ts
    // per instance (`--set controller.Ts=0.02` changes the tick rate of an
    // exported FMU without compiling anything).

    block ZeroOrderHold "Output is the input at the last tick"
      parameter SI.Time Ts = 0.1 "Sample period";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "The input at the last tick, held";
    protected
      Real uk "Input at the ticks";
    equation
      uk = sample(u, Clock(Ts));
      y = hold(uk);
    end ZeroOrderHold;

    block UnitDelay "Output is the input of the tick before the last one"
      parameter SI.Time Ts = 0.1 "Sample period";
      parameter Real y_start = 0 "Output from the first tick to the second";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "The input one tick earlier, held";
    protected
      Real uk(start = y_start) "Input at the ticks";
      Real yk "Output at the ticks";
    equation
      uk = sample(u, Clock(Ts));
      yk = previous(uk);
      y = hold(yk);
    end UnitDelay;

    block FirstOrderFilter "First-order lag T*der(y) + y = k*u, discretised exactly for an input held between ticks"
      // The step-invariant (zero-order-hold) discretisation: with
      // a = exp(-Ts/T), the output at tick j + 1 is
      //   y[j+1] = a*y[j] + (1 - a)*k*u[j],
      // which is the continuous lag's output at t[j+1] when its input is u[j]
      // from t[j] to t[j+1]. y[0] = y_start; the output is held between ticks.
      parameter Real k = 1 "Static gain";
      parameter SI.Time T = 1 "Time constant (must be positive)";
      parameter SI.Time Ts = 0.1 "Sample period";
      parameter Real y_start = 0 "Output at the first tick";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "Filtered signal, held";
    protected
      parameter Real a(unit = "1") = exp(-Ts/T) "Decay of the output over one period";
      Real uk "Input at the ticks";
      Real yk "Output at the ticks";
      Real yNext(start = y_start) "Output at the next tick";
    equation
      uk = sample(u, Clock(Ts));
      yk = previous(yNext);
      yNext = a*yk + (1 - a)*k*uk;
      y = hold(yk);
    end FirstOrderFilter;

    block DiscretePI "PI controller y = k*(e + x) whose integral x advances by Ts*e/Ti at every tick"
      // The integral is updated with the error of the current tick (the
      // backward rectangle rule): x[j] = x[j-1] + Ts*e[j]/Ti, x[-1] = x_start,
      // y[j] = k*(e[j] + x[j]) at tick j. With Kp = k and Ki = k/Ti this is
      // y[j] = Kp*e[j] + Ki*I[j], I[j] = I[j-1] + Ts*e[j].
      parameter Real k = 1 "Proportional gain";
      parameter SI.Time Ti = 1 "Integral time (must be positive)";
      parameter SI.Time Ts = 0.1 "Sample period";
      parameter Real x_start = 0 "Integral state before the first tick";
      Interfaces.RealInput u "Control error";
      Interfaces.RealOutput y "Control signal, held";
    protected
      Real e "Control error at the ticks";
      Real x(start = x_start) "Integrated control error divided by Ti, at the ticks";
      Real yk "Control signal at the ticks";
    equation
      e = sample(u, Clock(Ts));
      x = previous(x) + Ts*e/Ti;
      yk = k*(e + x);
      y = hold(yk);
    end DiscretePI;

    block TransferFunction "Discrete transfer function (b[1] + b[2]/z + ...)/(a[1] + a[2]/z + ...)"
      // Direct form: with u[j] and y[j] the input and the output at tick j,
      //   a[1]*y[j] + a[2]*y[j-1] + ... + a[n]*y[j-n+1]
      //     = b[1]*u[j] + b[2]*u[j-1] + ... + b[n]*u[j-n+1],
      // b and a of the same length n (pad the shorter with zeros), a[1] not
      // zero; inputs and outputs before the first tick are zero (at rest).
      // The past inputs and outputs are clocked arrays shifted by previous()
      // at every tick; the sums are a dot product and a sum over a whole
      // array, so the block compiles once for every n.
      parameter Integer n = 2 "Number of coefficients of numerator and denominator, the order plus one (at least 2)";
      parameter Real b[n] = {1, 0} "Numerator coefficients, of 1, 1/z, 1/z^2, ...";
      parameter Real a[n] = {1, 0} "Denominator coefficients, of 1, 1/z, 1/z^2, ...";
      parameter SI.Time Ts = 0.1 "Sample period";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "Filtered signal, held";
    protected
      Real uk[n](each start = 0) "uk[i]: the input i - 1 ticks ago";
      Real yPast[n](each start = 0) "yPast[i]: the output i ticks ago (yPast[n] is not used)";
      Real past[n] "past[i] = a[i + 1]*yPast[i]: the terms of the past outputs (past[n] = 0)";
      Real yk "Output at the ticks";
    equation
      uk[1] = sample(u, Clock(Ts));
      for i in 2:n loop
        uk[i] = previous(uk[i - 1]);
      end for;
      yPast[1] = previous(yk);
      for i in 2:n loop
        yPast[i] = previous(yPast[i - 1]);
      end for;
      for i in 1:n - 1 loop
        past[i] = a[i + 1]*yPast[i];
      end for;
      past[n] = 0;
      yk = (b*uk - sum(past))/a[1];
      y = hold(yk);
    end TransferFunction;

    block Hysteresis "Sampled on/off switch: on above uHigh, off below uLow, otherwise as at the tick before"
      parameter Real uLow = 0 "The switch turns off when the input is below this at a tick";
      parameter Real uHigh = 1 "The switch turns on when the input is above this at a tick (at least uLow)";
      parameter Boolean on_start = false "State before the first tick";
      parameter Real yOn = 1 "Output while on";
      parameter Real yOff = 0 "Output while off";
      parameter SI.Time Ts = 0.1 "Sample period";
      Interfaces.RealInput u "Switching signal";
      Interfaces.RealOutput y "yOn while on, yOff while off, held";
    protected
      Real uk "Input at the ticks";
      Boolean on(start = on_start) "On at the ticks";
      Real yk "Output at the ticks";
    equation
      uk = sample(u, Clock(Ts));
      on = uk > uHigh or (previous(on) and uk >= uLow);
      yk = if on then yOn else yOff;
      y = hold(yk);
    end Hysteresis;

  end Discrete;

  package Logical "Boolean and Integer signals: relations, logic, edges, counts and relays (events in local form, DESIGN §2.2c)"

    block GreaterThreshold "True while the input is above a threshold (a state event at each crossing)"
      parameter Real threshold = 0 "Threshold of the comparison";
      Interfaces.RealInput u "Compared signal";
      Interfaces.BooleanOutput y "u > threshold";
    equation
      y = u > threshold;
    end GreaterThreshold;

    block And "True while both inputs are true"
      Interfaces.BooleanInput u1;
      Interfaces.BooleanInput u2;
      Interfaces.BooleanOutput y "u1 and u2";
    equation
      y = u1 and u2;
    end And;

    block Or "True while either input is true"
      Interfaces.BooleanInput u1;
      Interfaces.BooleanInput u2;
      Interfaces.BooleanOutput y "u1 or u2";
    equation
      y = u1 or u2;
    end Or;

    block Not "True while the input is false"
      Interfaces.BooleanInput u;
      Interfaces.BooleanOutput y "not u";
    equation
      y = not u;
    end Not;

    block Edge "True at the event at which the input becomes true"
      Interfaces.BooleanInput u;
      Interfaces.BooleanOutput y "u and not pre(u): true only while the event is settled";
    equation
      y = edge(u);
    end Edge;

    block Counter "Counts the times its input has become true"
      parameter Integer y_start = 0 "Count before the first rising edge";
      Interfaces.BooleanInput u "Counted signal";
      Interfaces.IntegerOutput y(start = y_start) "Rising edges of u so far, plus y_start";
    equation
      when u then
        y = pre(y) + 1;
      end when;
    end Counter;

    block Hysteresis "Relay with hysteresis: true above uHigh, false below uLow, otherwise as before (state events)"
      parameter Real uLow = 0 "The output becomes false when the input falls below this";
      parameter Real uHigh = 1 "The output becomes true when the input rises above this (at least uLow)";
      parameter Boolean y_start = false "Output before the first event, where uLow <= u <= uHigh";
      Interfaces.RealInput u "Switching signal";
      Interfaces.BooleanOutput y(start = y_start) "The relay's state";
    equation
      y = if u > uHigh then true elseif u < uLow then false else pre(y);
    end Hysteresis;

    block TriggeredHold "Holds the input's value at each instant its trigger becomes true"
      parameter Real y_start = 0 "Output before the first trigger";
      Interfaces.RealInput u "Sampled signal";
      Interfaces.BooleanInput trigger "The input is taken when this becomes true";
      discrete Interfaces.RealOutput y(start = y_start) "u at the last trigger";
    equation
      when trigger then
        y = u;
      end when;
    end TriggeredHold;

  end Logical;

  package Examples "Small systems of signal blocks"

    model StepIntegrator "A step integrated from a non-zero initial value"
      Sources.Step step(height = 2, offset = 0, startTime = 0.5);
      Continuous.Integrator integrator(k = 1.5, y_start = 1);
    equation
      connect(step.y, integrator.u);
      annotation(experiment(StartTime = 0, StopTime = 2, Tolerance = 1e-06, Interval = 0.01));
    end StepIntegrator;

    model PulseIntegrator "Ten pulses integrated: every edge is an exact time event"
      Sources.Pulse pulse(amplitude = 2, width = 30, period = 2, offset = 0.5, startTime = 1);
      Continuous.Integrator integrator(k = 1, y_start = 0);
    equation
      connect(pulse.y, integrator.u);
      annotation(experiment(StartTime = 0, StopTime = 24, Tolerance = 1e-06, Interval = 0.01));
    end PulseIntegrator;

    model FirstOrderStep "A first-order lag that decays and then follows a step"
      Sources.Step step(height = 1, offset = 0, startTime = 1);
      Continuous.FirstOrder firstOrder(k = 2, T = 0.5, y_start = 0.5);
    equation
      connect(step.y, firstOrder.u);
      annotation(experiment(StartTime = 0, StopTime = 4, Tolerance = 1e-06, Interval = 0.01));
    end FirstOrderStep;

    model SineRampAdd "Sine plus ramp, amplified and integrated"
      Sources.Sine sine(amplitude = 1, freqHz = 0.5, phase = 0.3, offset = 0.2, startTime = 0.5);
      Sources.Ramp ramp(height = 2, duration = 1.5, offset = -0.5, startTime = 1);
      Continuous.Add add(k1 = 1, k2 = -0.5);
      Continuous.Gain gain(k = 3);
      Continuous.Integrator integrator(k = 1, y_start = 0);
    equation
      connect(sine.y, add.u1);
      connect(ramp.y, add.u2);
      connect(add.y, gain.u);
      connect(gain.y, integrator.u);
      annotation(experiment(StartTime = 0, StopTime = 5, Tolerance = 1e-06, Interval = 0.01));
    end SineRampAdd;

    model PIControlLoop "PI control of a first-order plant after a setpoint step"
      Sources.Step setpoint(height = 1, offset = 0, startTime = 0.5);
      Continuous.Feedback feedback;
      Continuous.PI controller(k = 2, T = 0.8, x_start = 0);
      Continuous.FirstOrder plant(k = 1, T = 1.5, y_start = 0);
      Continuous.Integrator meter(k = 1, y_start = 0) "Integral of the plant output";
    equation
      connect(setpoint.y, feedback.u1);
      connect(feedback.y, controller.u);
      connect(controller.y, plant.u);
      // The plant output fans out to the feedback and to the meter.
      connect(plant.y, feedback.u2);
      connect(plant.y, meter.u);
      annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-06, Interval = 0.02));
    end PIControlLoop;

    block DCMotor "A DC motor as a signal block: armature voltage in, speed out"
      // L*der(i) = v - R*i - k*w and J*der(w) = k*i - d*w, the torque
      // constant k in N.m/A equal to the back-EMF constant in V.s/rad.
      parameter Real R(unit = "Ohm") = 1 "Armature resistance";
      parameter Real L(unit = "H") = 0.02 "Armature inductance";
      parameter Real k(unit = "N.m/A") = 0.1 "Torque constant";
      parameter SI.Inertia J = 0.002 "Inertia of the rotor and its load";
      parameter SI.RotationalDampingConstant d = 0.001 "Viscous friction";
      Interfaces.RealInput v "Armature voltage, in V";
      Interfaces.RealOutput y "Speed, in rad/s";
      B.ContinuousState i(unit = "A", start = 0) "Armature current";
      B.ContinuousState w(unit = "rad/s", start = 0) "Speed";
    equation
      y = w;
      der(i) = (v - R*i - k*w)/L;
      der(w) = (k*i - d*w)/J;
    end DCMotor;

    model MotorSpeedControl "A DC motor under a discrete PI speed controller, ticking every 20 ms"
      Sources.Step setpoint(height = 5, offset = 10, startTime = 0.51) "Speed setpoint, in rad/s";
      Continuous.Feedback feedback "Speed error";
      Discrete.DiscretePI controller(k = 0.2, Ti = 0.05, Ts = 0.02);
      DCMotor motor(R = 1, L = 0.02, k = 0.1, J = 0.002, d = 0.001);
    equation
      connect(setpoint.y, feedback.u1);
      connect(motor.y, feedback.u2);
      connect(feedback.y, controller.u);
      connect(controller.y, motor.v);
      annotation(experiment(StartTime = 0, StopTime = 1.23, Tolerance = 1e-06, Interval = 0.003));
    end MotorSpeedControl;

    model TransferFunctionLoop "A first-order plant under a discrete second-order controller"
      Sources.Step setpoint(height = 1, offset = 0, startTime = 0.125);
      Continuous.Feedback feedback "Control error";
      // (0.6 - 0.48/z)/(1 - 1.3/z + 0.3/z^2) = 0.6*(1 - 0.8/z)/((1 - 1/z)*(1 - 0.3/z)):
      // an integrator (the pole at 1), a pole at 0.3 and a zero at 0.8.
      Discrete.TransferFunction controller(n = 3, b = {0.6, -0.48, 0}, a = {1, -1.3, 0.3}, Ts = 0.05);
      Continuous.FirstOrder plant(k = 2, T = 0.4, y_start = 0);
    equation
      connect(setpoint.y, feedback.u1);
      connect(plant.y, feedback.u2);
      connect(feedback.y, controller.u);
      connect(controller.y, plant.u);
      annotation(experiment(StartTime = 0, StopTime = 3.09, Tolerance = 1e-06, Interval = 0.003));
    end TransferFunctionLoop;

    model SampledSignals "One sine read by a zero-order hold, a unit delay and a first-order filter, each on its own clock"
      Sources.Sine sine(amplitude = 1, freqHz = 0.5, phase = 0.3, offset = 0.2, startTime = 0);
      Discrete.ZeroOrderHold zoh(Ts = 0.1);
      Discrete.UnitDelay delay(Ts = 0.15, y_start = 0.5);
      Discrete.FirstOrderFilter filter(k = 2, T = 0.3, Ts = 0.05, y_start = -1);
      // Each held output integrated: exact sums of the held values.
      Continuous.Integrator zohIntegral(k = 1, y_start = 0);
      Continuous.Integrator delayIntegral(k = 1, y_start = 0);
      Continuous.Integrator filterIntegral(k = 1, y_start = 0);
    equation
      connect(sine.y, zoh.u);
      connect(sine.y, delay.u);
      connect(sine.y, filter.u);
      connect(zoh.y, zohIntegral.u);
      connect(delay.y, delayIntegral.u);
      connect(filter.y, filterIntegral.u);
      annotation(experiment(StartTime = 0, StopTime = 2.07, Tolerance = 1e-06, Interval = 0.003));
    end SampledSignals;

    model PIPlant "The plant and meter of PIControlLoop on their own, for co-simulation"
      Interfaces.RealInput u "Control signal";
      Interfaces.RealOutput y "Plant output";
      Continuous.FirstOrder plant(k = 1, T = 1.5, y_start = 0);
      Continuous.Integrator meter(k = 1, y_start = 0) "Integral of the plant output";
    equation
      connect(u, plant.u);
      connect(plant.y, y);
      connect(plant.y, meter.u);
      annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-06, Interval = 0.02));
    end PIPlant;

    model PIController "The setpoint, feedback and PI controller of PIControlLoop, for co-simulation"
      Interfaces.RealInput measurement "Measured plant output";
      Interfaces.RealOutput u "Control signal";
      Sources.Step setpoint(height = 1, offset = 0, startTime = 0.5);
      Continuous.Feedback feedback;
      Continuous.PI controller(k = 2, T = 0.8, x_start = 0);
    equation
      connect(setpoint.y, feedback.u1);
      connect(measurement, feedback.u2);
      connect(feedback.y, controller.u);
      connect(controller.y, u);
      annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-06, Interval = 0.02));
    end PIController;

  end Examples;

end Signals;
