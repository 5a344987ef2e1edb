package Circuits
  import SI = Base.Units;
  model Charge
    parameter SI.HeatCapacity C = 1e-3;
  end Charge;
end Circuits;
