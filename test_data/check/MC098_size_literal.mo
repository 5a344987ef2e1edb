package P
  block B
    parameter Real r = 3;
    output Real y[3];
  equation
    y = zeros(r); // <- MC098
  end B;
end P;
