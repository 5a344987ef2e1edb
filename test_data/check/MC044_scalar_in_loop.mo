package P
  block B
    parameter Integer n = 2;
    output Real y;
  equation
    for i in 1:n loop
      y = i; // <- MC044
    end for;
  end B;
end P;
