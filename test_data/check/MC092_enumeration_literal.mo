encapsulated package P
  type Mode = enumeration(Off "No heating", Heat "Heating");
  block B
    parameter Mode mode = Mode.Heat;
    output Real y;
  equation
    y = if mode == Mode.Warm then 1 else 0; // <- MC092
  end B;
end P;
