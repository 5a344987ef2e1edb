package P
  connector Frame
    input Real phi;
  end Frame;
  model M
    Frame f;
  equation
    Connections.root(f); // <- MC105
  end M;
end P;
