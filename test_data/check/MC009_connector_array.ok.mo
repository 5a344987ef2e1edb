package P
  connector Pin
    output Real v;
    flow Real i;
  end Pin;
  model M
    Pin pin1;
    Pin pin2;
  equation
    pin1.v = 1;
    pin2.v = 2;
  end M;
end P;
