package P
  model M
    outer parameter Real T; // <- MC103
    output Real y;
  equation
    y = T;
  end M;
end P;
