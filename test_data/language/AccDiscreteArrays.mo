// Arrays of Boolean and Integer variables over a parameter size (issue 21):
// each element's relation is a state event of its own, and `--set n=...`
// changes the number of event indicators without compiling new class code.
encapsulated package AccDiscreteArrays
  import B = Base;

  model Gates "n tanks, each with a gate that opens above a level"
    parameter Integer n = 3 "Number of tanks";
    parameter Real r = 1 "Filling rate of tank 1 while its gate is shut; tank i fills at i*r";
    parameter Real q = 0.1 "Filling rate once the gate is open";
    parameter Real h = 0.5 "Level above which a gate opens";
    B.ContinuousState x[n](each start = 0) "Levels";
    Boolean open[n] "The gate is open";
    Integer stage[n] "1 while filling fast, 2 once open";
  equation
    for i in 1:n loop
      open[i] = x[i] > h;
      stage[i] = if open[i] then 2 else 1;
      der(x[i]) = if open[i] then q else i*r;
    end for;
  end Gates;

end AccDiscreteArrays;
