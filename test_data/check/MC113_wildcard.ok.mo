package Units
  type Length = Real(unit = "m");
end Units;
encapsulated package P
  import Units.Length;
end P;
