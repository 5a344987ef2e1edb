package P
  type ContinuousState = Real;
  model Lag
    parameter Real Ts = 0.1;
    parameter Real a = 0.8;
    parameter Real T(unit = "s") = 1;
    ContinuousState x(start = 1);
    Real y(start = 0);
  equation
    when Clock(Ts) then // <- MC183
      y = a*previous(y) + (1 - a)*sample(x, Clock(Ts));
    end when;
    der(x) = (1 - x)/T;
  end Lag;
end P;
