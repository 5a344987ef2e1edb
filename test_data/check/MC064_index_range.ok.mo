package P
  block B
    input Real u;
    output Real y[2];
    output Real z;
  equation
    y = {u, 2*u};
    z = y[2];
  end B;
end P;
