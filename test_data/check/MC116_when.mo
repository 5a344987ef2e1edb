package P
  block B "A periodic when: the event form of a clock"
    input Real u;
    output Real y;
    parameter Real Ts = 0.1;
  equation
    when sample(0, Ts) then // <- MC116
      y = u;
    end when;
  end B;
end P;
