package P
  model M
    Lenght x; // <- MC005
  equation
    x = 1;
  end M;
end P;
