package Units
  type Length = Real(unit = "m");
end Units;
encapsulated package P
  import Units.*; // <- MC113
end P;
