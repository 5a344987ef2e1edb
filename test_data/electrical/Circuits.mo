// Small circuits of examples/Electrical beside the library's examples, each
// with a closed form (tests/it/electrical.rs): a voltage divider through a
// Node, a capacitor charged by a current source through a resistor, an RL
// branch measured by a current sensor, and an RC as a newcomer builds it.
encapsulated package Circuits
  import Electrical.Basic;
  import Electrical.Sources;
  import Electrical.Sensors;

  model Divider "Two resistors in series between a source and ground: their node is a Node"
    output Real vOut "Voltage across R2";
    Sources.ConstantVoltage source(V = 10);
    Basic.Resistor r1(R = 1000);
    Basic.Node node;
    Basic.Resistor r2(R = 3000);
    Basic.Ground ground;
    Sensors.VoltageSensor meter;
  equation
    connect(source.n, ground.p);
    connect(source.p, r1.p);
    connect(r1.n, node.p);
    connect(node.p, r2.p);
    connect(r2.n, ground.p);
    connect(node.p, meter.p);
    connect(ground.p, meter.n);
    vOut = meter.v;
    annotation(experiment(StopTime = 1, Interval = 0.1));
  end Divider;

  model CurrentRC "A current source charges a capacitor with a resistor in parallel"
    output Real v "Capacitor voltage";
    Sources.ConstantCurrent source(I = 1e-3) "Pushes I out of n into the capacitor";
    Basic.Capacitor capacitor(C = 1e-3);
    Basic.Resistor resistor(R = 2000);
    Basic.Ground ground;
    Sensors.PotentialSensor probe;
  equation
    connect(ground.p, source.p);
    connect(source.n, capacitor.p);
    connect(capacitor.n, ground.p);
    connect(capacitor.p, resistor.p);
    connect(resistor.n, ground.p);
    connect(capacitor.p, probe.p);
    v = probe.phi;
    annotation(experiment(StopTime = 6, Interval = 0.01));
  end CurrentRC;

  model SensedRL "A voltage step on a resistor and an inductor, the current measured in series"
    output Real i "Measured current";
    Sources.StepVoltage source(V = 2, startTime = 0.1);
    Sensors.CurrentSensor sensor;
    Basic.SeriesResistor resistor(R = 4);
    Basic.Inductor inductor(L = 0.5);
    Basic.Ground ground;
  equation
    connect(source.n, ground.p);
    connect(source.p, sensor.p);
    connect(sensor.n, resistor.p);
    connect(resistor.n, inductor.p);
    connect(inductor.n, ground.p);
    i = sensor.i;
    annotation(experiment(StopTime = 1, Interval = 0.01));
  end SensedRL;

  model RC "A newcomer's RC: a source charges a capacitor through a resistor"
    // Around the loop: the source determines the first node, the capacitor
    // the second; the resistor between two determined nodes determines its
    // current (Resistor).
    parameter Real V = 1;
    parameter Real R = 1000;
    parameter Real C = 1e-3;
    output Real v "Capacitor voltage";
    Sources.ConstantVoltage source(V = V);
    Basic.Resistor resistor(R = R);
    Basic.Capacitor capacitor(C = C);
    Basic.Ground ground;
  equation
    connect(source.p, resistor.p);
    connect(resistor.n, capacitor.p);
    connect(capacitor.n, ground.p);
    connect(source.n, ground.p);
    v = capacitor.v;
    annotation(experiment(StopTime = 5, Interval = 0.01));
  end RC;

end Circuits;
