package P
  type Loop = Loop;
  model A
    extends A; // <- MC006
  end A;
  model M
    Loop x; // <- MC006
  equation
    x = 1;
  end M;
end P;
