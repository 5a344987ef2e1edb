package P
  block B
    input Real u;
    output Real y[2];
  equation
    y = {u, 2*u};
  end B;
end P;
