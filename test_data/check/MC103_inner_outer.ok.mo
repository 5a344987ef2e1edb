package P
  model M
    parameter Real T = 300;
    output Real y;
  equation
    y = T;
  end M;
end P;
