package P
  block B
    input Real u;
    output Real y;
  equation
    y = homotopy(u*u, u); // <- MC108
  end B;
end P;
