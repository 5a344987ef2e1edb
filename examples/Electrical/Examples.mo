within Electrical;
encapsulated package Examples "Circuits, a DC motor and a transmission line"
  import SI = Base.Units;
  import Electrical.Basic;
  import Electrical.Sources;
  import Electrical.Sensors;
  import Planar.Rotational;
  import Signals.Continuous;
  import Signals.Discrete;
  import SignalSources = Signals.Sources;

  // Each example names its key results as top-level outputs. The order of
  // the elements around a loop decides which form each takes: the source
  // determines the first node's potential, the inductor the loop's current,
  // so the resistor after the source is a SeriesResistor, and the capacitor
  // determines the node it closes.

  model SeriesRLC "A voltage step at t = 0 on a resistor, an inductor and a capacitor in series, at rest"
    parameter SI.Voltage V = 1 "Height of the step";
    parameter SI.Resistance R = 10 "Resistance";
    parameter SI.Inductance L = 0.1 "Inductance";
    parameter SI.Capacitance C = 1e-3 "Capacitance";
    output SI.Voltage vC "Capacitor voltage";
    output SI.Current i "Loop current";
    Sources.StepVoltage source(V = V, startTime = 0);
    Basic.SeriesResistor resistor(R = R);
    Basic.Inductor inductor(L = L);
    Basic.Capacitor capacitor(C = C);
    Basic.Ground ground;
  equation
    connect(source.p, resistor.p);
    connect(resistor.n, inductor.p);
    connect(inductor.n, capacitor.p);
    connect(capacitor.n, ground.p);
    connect(source.n, ground.p);
    vC = capacitor.v;
    i = inductor.i;
    annotation(experiment(StartTime = 0, StopTime = 0.2, Tolerance = 1e-06, Interval = 0.0005));
  end SeriesRLC;

  model DCMotor "A DC motor started at rest by a constant armature voltage"
    parameter SI.Voltage V = 12 "Armature voltage";
    parameter SI.Resistance R = 1 "Armature resistance";
    parameter SI.Inductance L = 0.02 "Armature inductance";
    parameter Real k(unit = "N.m/A") = 0.1 "EMF constant";
    parameter SI.Inertia J = 0.002 "Inertia of the rotor and its load";
    parameter SI.RotationalDampingConstant d = 0.001 "Viscous damping";
    output SI.AngularVelocity w "Speed of the rotor";
    output SI.Current i "Armature current";
    Sources.ConstantVoltage source(V = V);
    Basic.SeriesResistor resistor(R = R);
    Basic.Inductor inductor(L = L);
    Basic.EMF emf(k = k);
    Basic.Ground ground;
    Rotational.Inertia rotor(J = J) "Owns the rotation; the EMF and the damper answer with torques";
    Rotational.Fixed housing;
    Rotational.SpringDamper damper(c = 0, d = d) "Viscous damping against the housing";
  equation
    connect(source.p, resistor.p);
    connect(resistor.n, inductor.p);
    connect(inductor.n, emf.p);
    connect(emf.n, ground.p);
    connect(source.n, ground.p);
    connect(rotor.flange, emf.flange);
    connect(housing.flange, damper.flange_a);
    connect(rotor.flange, damper.flange_b);
    w = rotor.w;
    i = inductor.i;
    annotation(experiment(StartTime = 0, StopTime = 1, Tolerance = 1e-06, Interval = 0.001));
  end DCMotor;

  model MotorSpeedControl "The DC motor of components under the clocked PI of Signals.Discrete, ticking every 20 ms"
    // Signals.Examples.MotorSpeedControl with the motor built from pins and
    // flanges instead of one signal block: the same equations, the same
    // results.
    output SI.AngularVelocity w "Speed of the rotor";
    output SI.Current i "Armature current";
    SignalSources.Step setpoint(height = 5, offset = 10, startTime = 0.51) "Speed setpoint, in rad/s";
    Continuous.Feedback feedback "Speed error";
    Discrete.DiscretePI controller(k = 0.2, Ti = 0.05, Ts = 0.02);
    Sources.SignalVoltage source;
    Basic.SeriesResistor resistor(R = 1);
    Basic.Inductor inductor(L = 0.02);
    Basic.EMF emf(k = 0.1);
    Basic.Ground ground;
    Rotational.Inertia rotor(J = 0.002);
    Rotational.Fixed housing;
    Rotational.SpringDamper damper(c = 0, d = 0.001);
    Rotational.SpeedSensor speed;
  equation
    connect(setpoint.y, feedback.u1);
    connect(speed.w, feedback.u2);
    connect(feedback.y, controller.u);
    connect(controller.y, source.v);
    connect(source.p, resistor.p);
    connect(resistor.n, inductor.p);
    connect(inductor.n, emf.p);
    connect(emf.n, ground.p);
    connect(source.n, ground.p);
    connect(rotor.flange, emf.flange);
    connect(housing.flange, damper.flange_a);
    connect(rotor.flange, damper.flange_b);
    connect(rotor.flange, speed.flange);
    w = rotor.w;
    i = inductor.i;
    annotation(experiment(StartTime = 0, StopTime = 1.23, Tolerance = 1e-06, Interval = 0.003));
  end MotorSpeedControl;

  model TransmissionLine "A filtered voltage step travels down a lumped line of N segments into a matched load"
    // The ScalableTestSuite's TransmissionLineModelica: a unit step through
    // a second-order low-pass filter (w, D = 1) drives a voltage source into
    // N segments, each a series resistor and inductor and a shunt
    // capacitor, closed by a load resistor equal to the line's
    // characteristic impedance sqrt(l/c), so nothing is reflected and the
    // load sees the source's voltage delayed by length*sqrt(l*c). N sizes
    // the arrays of components: another N is data, not code (`--set N=...`);
    // length, r, l, c and w are parameters an importer may set: each
    // segment's elements are bound to the parameters Rseg, Lseg and Cseg
    // (docs/language.md, "A Real parameter of the class as the elements'
    // value").
    parameter Integer N = 30 "Number of segments";
    parameter SI.Length length = 100 "Length of the line";
    parameter Real r(unit = "Ohm/m") = 48e-6 "Resistance per metre";
    parameter Real l(unit = "H/m") = 253e-9 "Inductance per metre";
    parameter Real c(unit = "F/m") = 101e-12 "Capacitance per metre";
    parameter Real w(unit = "rad/s") = 5e6 "Angular frequency of the filter";
    parameter SI.Resistance RL = sqrt(l/c) "Load resistance, the line's characteristic impedance";
    parameter SI.Time TD = length*sqrt(l*c) "Delay of the line";
    parameter SI.Resistance Rseg = r*length/N "Resistance of a segment";
    parameter SI.Inductance Lseg = l*length/N "Inductance of a segment";
    parameter SI.Capacitance Cseg = c*length/N "Capacitance of a segment";
    output SI.Voltage vLoad "Voltage across the load";
    SignalSources.Step step(height = 1, offset = 0, startTime = 0);
    Continuous.SecondOrder filter(w = w, D = 1);
    Sources.SignalVoltage source;
    Basic.Ground ground;
    Basic.SeriesResistor resistor[N](each R = Rseg);
    Basic.Inductor inductor[N](each L = Lseg);
    Basic.Capacitor capacitor[N](each C = Cseg);
    Basic.Resistor load(R = RL);
  equation
    connect(step.y, filter.u);
    connect(filter.y, source.v);
    connect(source.n, ground.p);
    connect(source.p, resistor[1].p);
    for k in 1:N loop
      connect(resistor[k].n, inductor[k].p);
      connect(inductor[k].n, capacitor[k].p);
      connect(capacitor[k].n, ground.p);
    end for;
    for k in 1:N - 1 loop
      connect(capacitor[k].p, resistor[k + 1].p);
    end for;
    connect(capacitor[N].p, load.p);
    connect(load.n, ground.p);
    vLoad = load.v;
    annotation(experiment(StartTime = 0, StopTime = 4e-06, Tolerance = 1e-08, Interval = 2e-09));
  end TransmissionLine;

end Examples;
