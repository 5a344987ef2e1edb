package P
  model M
    parameter Boolean useHeat = true;
    output Real y if useHeat; // <- MC112
  equation
    y = 1;
  end M;
end P;
