// Event iterations that settle and one that never does. `Flip` negates a
// Boolean on the rising edge of its condition: one change per crossing, so
// the iteration settles at once. `Runaway` raises an Integer from its own
// left limit in every round once the time has come: nothing can settle it,
// and the FMU must say so at that instant instead of looping.
encapsulated package Chatter
  model Flip "A Boolean negated once when the time reaches half a second"
    Boolean b(start = false) "Negated at the edge";
    Boolean late "After half a second";
  equation
    late = time >= 0.5;
    when late then
      b = not pre(b);
    end when;
    annotation(experiment(StopTime = 1));
  end Flip;

  model Runaway "An Integer that rises in every round of the event iteration from half a second on"
    Integer n(start = 0) "Rises at every round";
  equation
    n = if time >= 0.5 then pre(n) + 1 else pre(n);
    annotation(experiment(StopTime = 1));
  end Runaway;
end Chatter;
