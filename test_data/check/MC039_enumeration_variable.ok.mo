package P
  type Mode = enumeration(Off, Low, High);
  block B "An Integer variable, and the enumeration as a parameter"
    parameter Mode m0 = Mode.Low;
    input Integer k "Boolean and Integer inputs are discrete signals";
    output Real y;
    Integer m;
  equation
    m = if m0 == Mode.Low then 1 else 0;
    y = if m == 1 then k else 0;
  end B;
end P;
