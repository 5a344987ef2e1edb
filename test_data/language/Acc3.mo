// An if-equation with a parameter condition and a state event, and a Boolean
// parameter that --set can change.
encapsulated package Acc3
  import B = Base;

  model Clip "Integrates exp(-t), optionally clipped from below"
    parameter Boolean clip = true "Clip the signal from below";
    parameter Real lower = 0.5 "Lower limit";
    Real u "Signal";
    Real y "Clipped signal";
    Real removed "What the clipping added";
    B.ContinuousState x(start = 0) "Integral of y";
  equation
    u = exp(-time);
    if clip and u < lower then
      y = lower;
      removed = lower - u;
    else
      y = u;
      removed = 0;
    end if;
    der(x) = y;
  end Clip;

end Acc3;
