package Units
  type Length = Real(unit = "m");
end Units;
package P
  import SI = Units; // <- MC114
end P;
