package P
  block B
    input Real u;
    output Real y;
  algorithm // <- MC110
    y := 2*u;
  end B;
end P;
