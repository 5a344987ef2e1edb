// export: P.Plate
// set: cell[2,4].C=10
package P
  type ContinuousState = Real;
  model Cell
    parameter Real C = 1;
    parameter Real T0 = 300;
    ContinuousState T(start = T0);
  equation
    der(T) = (290 - T)/C;
  end Cell;
  model Plate
    parameter Integer n = 2;
    parameter Integer m = 3;
    Cell cell[n, m](each C = 5); // <- MX038
  end Plate;
end P;
