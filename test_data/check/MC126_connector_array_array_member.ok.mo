package P
  connector Pin
    output Real v;
    flow Real i;
  end Pin;
  model M
    Pin pins[3];
  equation
    for k in 1:3 loop
      pins[k].v = k;
    end for;
  end M;
end P;
