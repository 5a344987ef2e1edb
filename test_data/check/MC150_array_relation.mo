package P
  type ContinuousState = Real;
  model Gates
    parameter Integer n = 3;
    parameter Real h = 0.5;
    ContinuousState x[n](each start = 0);
    Boolean open[n];
    ContinuousState y[2](each start = 0);
    Boolean high[2];
  equation
    open = x > h; // <- MC150
    for i in 1:n loop
      der(x[i]) = if open[i] then 0.1 else i;
    end for;
    high = y > {0.2, 0.4}; // <- MC150
    der(y) = {1, 2};
  end Gates;
end P;
