encapsulated package P
  import SI = Units; // <- MC004
  model M
    SI.Length x;
  equation
    x = 1;
  end M;
end P;
