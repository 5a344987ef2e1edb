package P
  block B
    parameter Real n = 1;
    output Real y[n]; // <- MC041
  equation
    for i in 1:n loop // <- MC042
      y[i] = 1;
    end for;
  end B;
end P;
