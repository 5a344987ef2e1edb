package P
  connector Port
    output Real e;
    flow Real f;
  end Port;
  model M
    Port p;
  equation
    p.e = 1;
  end M;
end P;
