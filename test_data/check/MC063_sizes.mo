package P
  block B
    input Real u;
    output Real y[2];
  equation
    y = {u, u, u}; // <- MC063
  end B;
end P;
