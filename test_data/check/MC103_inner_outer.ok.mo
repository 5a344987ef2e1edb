// export: P.System
package P
  model Env
    parameter Real T = 300;
  end Env;
  model M
    outer Env env;
    output Real y;
  equation
    y = env.T;
  end M;
  model System
    inner Env env(T = 290);
    M m;
  end System;
end P;
