package P
  block B
    parameter Real t0 = time; // <- MC049
    output Real y;
  equation
    y = t0;
  end B;
end P;
