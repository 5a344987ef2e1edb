// export: P.Row
// set: cell[4].C=10
package P
  type ContinuousState = Real;
  model Cell
    parameter Real C = 1;
    parameter Real T0 = 300;
    ContinuousState T(start = T0);
  equation
    der(T) = (290 - T)/C;
  end Cell;
  model Row
    parameter Integer n = 3;
    Cell cell[n](each C = 5); // <- MX038
  end Row;
end P;
