package P
  type Mode = enumeration(:); // <- MC118
end P;
