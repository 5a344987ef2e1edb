package P
  type Mode = Integer(min = 1, max = 2);
end P;
