package P
  block B
  end B;
  block B // <- MC003
  end B;
end P;
