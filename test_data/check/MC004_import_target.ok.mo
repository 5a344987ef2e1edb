package Units
  type Length = Real(unit = "m");
end Units;
encapsulated package P
  import SI = Units;
  model M
    SI.Length x;
  equation
    x = 1;
  end M;
end P;
