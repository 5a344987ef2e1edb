package P
  type Mode = enumeration(on, off); // <- MC118
end P;
