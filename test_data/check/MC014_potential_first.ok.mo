package P
  connector Port
    input Real e;
    flow Real f;
  end Port;
  model M
    Port p;
  equation
    p.f = 2*p.e;
  end M;
end P;
