package P
  type Length = Real;
  model A
    Length x;
  equation
    x = 1;
  end A;
  model M
    extends A;
  end M;
end P;
