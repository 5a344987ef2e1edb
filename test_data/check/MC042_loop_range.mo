package P
  block B
    parameter Integer n = 2;
    parameter Real m = 2;
    output Real y[n];
  equation
    for i in 1:m loop // <- MC042
      y[i] = i;
    end for;
    for i in {1, 2} loop // <- MC042
      y[i] = i;
    end for;
  end B;
end P;
