package P
  block B
    parameter Real t0 = 0;
    output Real y;
  equation
    y = t0;
  end B;
end P;
