package P
  connector Port
    flow Real f; // <- MC013
    output Real e;
  end Port;
  model M
    Port p;
  end M;
end P;
