package P
  block B
    input Real u;
    output Real y;
  equation
    y = u;
    print(y); // <- MC043
  end B;
  block Repeat
    parameter Integer n = 2;
    input Real u;
    output Real y;
    Real z[n];
  equation
    for i in 1:n loop
      z[i] = u;
      connect(u, y); // <- MC043
    end for;
  end Repeat;
end P;
