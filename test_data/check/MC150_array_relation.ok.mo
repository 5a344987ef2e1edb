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
    for i in 1:n loop
      open[i] = x[i] > h;
    end for;
    for i in 1:n loop
      der(x[i]) = if open[i] then 0.1 else i;
    end for;
    high[1] = y[1] > 0.2;
    high[2] = y[2] > 0.4;
    der(y) = {1, 2};
  end Gates;
end P;
