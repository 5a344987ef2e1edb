package P
  connector Pin
    output Real v;
    flow Real i;
  end Pin;
  model M
    Pin pins[2]; // <- MC009
  end M;
end P;
