// export: P.Room
// set: n=4
package P
  type ContinuousState = Real;
  model Room "Losses through n walls, bound for three"
    parameter Integer n = 3;
    parameter Real G[n] = {2, 3, 5}; // <- MX034
    ContinuousState T(start = 300);
  equation
    der(T) = -sum(G)*(T - 290)/1000;
  end Room;
end P;
