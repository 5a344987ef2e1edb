package P
  block B "The clocked form: u read at the ticks, held between them"
    input Real u;
    output Real y;
    parameter Real Ts = 0.1;
  protected
    Real uk;
  equation
    uk = sample(u, Clock(Ts));
    y = hold(uk);
  end B;
end P;
