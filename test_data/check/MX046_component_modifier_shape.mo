// export: P.Plate
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
    Cell cell[2, 3](C = [1, 2; 3, 4; 5, 6]); // <- MX046
  end Plate;
end P;
