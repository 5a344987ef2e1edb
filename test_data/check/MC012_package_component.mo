package P
  package Q
  end Q;
  model M
    Q q; // <- MC012
  end M;
end P;
