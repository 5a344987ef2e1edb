// Causal signal blocks: sources, continuous blocks and example systems.
// Interfaces, sources, continuous blocks and examples are separate packages so
// that each one depends only on packages declared before it.
encapsulated package Signals "Causal signal blocks"
  import B = Base;
  import SI = Base.Units;

  package Interfaces "Signal connectors"
    connector RealInput = input Real;
    connector RealOutput = output Real;
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
      // time event (no `when`/`sample`, no event-generating floor or mod).
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

  end Continuous;

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
