package P
  model M
    extends Real; // <- MC007
  end M;
end P;
