package P
  model Env
    parameter Real T = 300;
  end Env;
  model M
    outer Env env; // <- MC103
    output Real y;
  equation
    y = 1;
  end M;
end P;
