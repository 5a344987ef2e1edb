// Top-level inputs and outputs, for the ModelStructure dependencies test:
// each output and derivative depends on a strict subset of the inputs,
// states and time.
encapsulated package InOut
  import B = Base;

  block Lag "First-order lag with a direct feed-through"
    parameter Real T = 0.5 "Time constant";
    parameter Real x0 = 1 "Initial state";
    input Real u "Input";
    output Real y "2*x + u";
    B.ContinuousState x(start = x0) "Lag state";
  equation
    der(x) = (u - x)/T;
    y = 2*x + u;
  end Lag;

  model Plant "Two lags, one driven by an input, one by time"
    input Real u(start = 0.3) "Drives the first lag";
    input Real w(start = 2) "Scales the second output";
    output Real y "Output of the first lag";
    output Real z "Output of the second lag times w";
    output Real s "Depends on time only";
    parameter Real omega(unit = "1/s") = 3 "Angular frequency of the drive";
    Lag first(T = 0.25);
    Lag second(x0 = -1);
  equation
    connect(u, first.u);
    second.u = sin(omega*time);
    y = first.y;
    z = second.y*w;
    s = cos(omega*time);
  end Plant;
end InOut;
