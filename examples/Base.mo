// The special predefined classes of the strict modelling methodology and the
// SI unit types the bundled libraries share. Everything here is plain
// Modelica, so any Modelica tool accepts it; mofmu recognises the special
// classes by their short names and shapes.
encapsulated package Base "Special predefined classes and SI units"

  // A variable of this type is a state of its class: it is known inside the
  // class, der(x) is determined by exactly one equation, and its start value
  // is the initial value.
  type ContinuousState = Real;

  // A variable that carries its first time derivative along with its value.
  type RealWithDerivative = Real;

  // A variable that carries its first and second time derivatives.
  type RealWith2Derivatives = Real;

  model LinearResponse "Declared tearing of a linear equation system"
    input Real residual "Driven to zero by the system";
    output Real balance "Chosen by the system so that the residual vanishes";
  equation
    residual = 0;
  end LinearResponse;

  package Units "SI unit types"
    type Time = Real(unit = "s");
    type Frequency = Real(unit = "Hz");
    type Angle = Real(unit = "rad");
    type Length = Real(unit = "m");
    type Area = Real(unit = "m2");
    type Volume = Real(unit = "m3");
    type Mass = Real(unit = "kg");
    type Density = Real(unit = "kg/m3");
    type Temperature = Real(unit = "K");
    type TemperatureDifference = Real(unit = "K");
    type HeatFlowRate = Real(unit = "W");
    type HeatCapacity = Real(unit = "J/K");
    type SpecificHeatCapacity = Real(unit = "J/(kg.K)");
    type ThermalConductance = Real(unit = "W/K");
    type ThermalConductivity = Real(unit = "W/(m.K)");
    type Power = Real(unit = "W");
    type Energy = Real(unit = "J");
    type Position = Real(unit = "m");
    type Distance = Real(unit = "m");
    type Velocity = Real(unit = "m/s");
    type Acceleration = Real(unit = "m/s2");
    type AngularVelocity = Real(unit = "rad/s");
    type AngularAcceleration = Real(unit = "rad/s2");
    type Force = Real(unit = "N");
    type Torque = Real(unit = "N.m");
    type Inertia = Real(unit = "kg.m2");
    type TranslationalSpringConstant = Real(unit = "N/m");
    type TranslationalDampingConstant = Real(unit = "N.s/m");
    type RotationalSpringConstant = Real(unit = "N.m/rad");
    type RotationalDampingConstant = Real(unit = "N.m.s/rad");
    type AngularFrequency = Real(unit = "rad/s");
    type Voltage = Real(unit = "V");
    type Current = Real(unit = "A");
    type Resistance = Real(unit = "Ohm");
    type Conductance = Real(unit = "S");
    type Capacitance = Real(unit = "F");
    type Inductance = Real(unit = "H");
    type ElectricCharge = Real(unit = "C");
    type MagneticFlux = Real(unit = "Wb");
  end Units;

end Base;
