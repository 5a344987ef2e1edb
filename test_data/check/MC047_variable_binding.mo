package P
  block B
    input Real u;
    output Real y = 2*u; // <- MC047
  end B;
end P;
