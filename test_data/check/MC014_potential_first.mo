package P
  connector Port
    Real e; // <- MC014
    flow Real f; // no MC013 too: the potential before it is the one fault (one root cause)
  end Port;
  model M
    Port p;
  end M;
end P;
