package P
  connector Port
    Real e; // <- MC014
    flow Real f; // <- MC013
  end Port;
  model M
    Port p;
  end M;
end P;
