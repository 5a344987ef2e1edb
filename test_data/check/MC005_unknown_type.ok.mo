package P
  type Length = Real(unit = "m");
  model M
    Length x;
  equation
    x = 1;
  end M;
end P;
