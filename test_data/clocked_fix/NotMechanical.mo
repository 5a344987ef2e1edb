encapsulated package NotMechanical "Periodic when-equations whose clocked form is not mechanical: help line only"
  import B = Base;

  model Offset "Ticks from t = 0.5, not from the start"
    parameter Real Ts = 0.1;
    B.ContinuousState x(start = 1);
    Real u;
  equation
    when sample(0.5, Ts) then // <- start
      u = -x;
    end when;
    der(x) = u;
  end Offset;

  model VariableInterval "An interval that is not a parameter expression"
    B.ContinuousState x(start = 1);
    Real u;
  equation
    when sample(0, x) then // <- interval
      u = -x;
    end when;
    der(x) = u;
  end VariableInterval;

  model Reinit "A reset of a state"
    parameter Real Ts = 0.1;
    B.ContinuousState x(start = 1);
  equation
    when sample(0, Ts) then // <- reinit
      reinit(x, 1);
    end when;
    der(x) = -x;
  end Reinit;

  model Elsewhen "Two branches"
    parameter Real Ts = 0.1;
    B.ContinuousState x(start = 1);
    Real u;
  equation
    when sample(0, Ts) then // <- elsewhen
      u = -x;
    elsewhen x < 0 then
      u = 0;
    end when;
    der(x) = u;
  end Elsewhen;

  block Output "The variable determined is an output of the block"
    parameter Real Ts = 0.1;
    input Real r;
    output Real y;
  equation
    when sample(0, Ts) then // <- output
      y = 2*r;
    end when;
  end Output;

  model ReadBefore "A variable read before the equation that determines it"
    parameter Real Ts = 0.1;
    B.ContinuousState x(start = 1);
    Real u, e;
  equation
    when sample(0, Ts) then // <- order
      u = 2*e;
      e = -x;
    end when;
    der(x) = u;
  end ReadBefore;

  model Untied "A counter that reads no sampled value"
    parameter Real Ts = 0.1;
    B.ContinuousState x(start = 1);
    Integer n(start = 0);
  equation
    when sample(0, Ts) then // <- untied
      n = pre(n) + 1;
    end when;
    der(x) = -x*n;
  end Untied;

  model TwoIntervals "Two clocks in one class"
    parameter Real Ts = 0.1;
    B.ContinuousState x(start = 1);
    Real u1, u2;
  equation
    when sample(0, Ts) then // <- intervals
      u1 = -x;
    end when;
    when sample(0, 2*Ts) then // <- intervals
      u2 = -x;
    end when;
    der(x) = u1 + u2;
  end TwoIntervals;

  model PreOutside "pre of a when variable in a continuous-time equation"
    parameter Real Ts = 0.1;
    B.ContinuousState x(start = 1);
    Real u;
  equation
    when sample(0, Ts) then // <- pre
      u = -x;
    end when;
    der(x) = pre(u);
  end PreOutside;
end NotMechanical;
