// A state declared by der() of a variable of a unit type (SI.Temperature):
// the fix declares it Base.ContinuousState and keeps the type's unit.
encapsulated model Warm
  import Base;
  import SI = Base.Units;
  parameter SI.HeatCapacity C = 10;
  parameter SI.HeatFlowRate Q = 5;
  SI.Temperature T(start = 300);
  SI.Temperature U;
equation
  C*der(T) = Q;
  der(U) = der(T);
end Warm;
