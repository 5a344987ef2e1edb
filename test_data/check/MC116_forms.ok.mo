package P
  model M "The forms the methodology writes instead"
    input Real u;
    parameter Real Ts = 0.1;
    Real y1, y2, y3;
  protected
    Real uk;
  equation
    y1 = 0;
    y2 = if time > Ts then 1 else 0;
    uk = sample(u, Clock(Ts));
    y3 = hold(uk);
  end M;
end P;
