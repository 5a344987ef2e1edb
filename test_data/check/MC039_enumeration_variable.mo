package P
  type Mode = enumeration(Off, Low, High);
  block B "An enumeration variable"
    input Real u;
    output Real y;
    Mode m;
  equation
    y = if m == Mode.Low then u else 0; // <- MC039
  end B;
end P;
