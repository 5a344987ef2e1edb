encapsulated package Circuits
  model Charge
    parameter Real C = 1e-3;
    Base.ContinuousState v(start = 0);
  equation
    C*der(v) = 1e-3;
  end Charge;
end Circuits;
