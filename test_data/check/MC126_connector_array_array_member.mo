package P
  connector Bus
    output Real v[2];
    flow Real i[2];
  end Bus;
  model M
    Bus buses[3]; // <- MC126
  end M;
end P;
