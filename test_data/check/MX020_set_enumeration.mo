// export: P.M
// set: mode=Warm
encapsulated package P
  type Mode = enumeration(Off "No heating", Heat "Heating", Boost "Twice the heating");
  model M
    parameter Mode mode = Mode.Heat; // <- MX020
    output Real y;
  equation
    y = if mode == Mode.Off then 0 elseif mode == Mode.Heat then 1 else 2;
  end M;
end P;
