package P
  connector Frame
    input Real phi;
  end Frame;
  model M
    Frame f;
    output Real y;
  equation
    y = f.phi;
  end M;
end P;
