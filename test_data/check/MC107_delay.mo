package P
  block B
    input Real u;
    output Real y;
  equation
    y = delay(u, 0.1); // <- MC107
  end B;
end P;
