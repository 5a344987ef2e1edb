package P
  block B
  end B;
  block C
  end C;
end P;
