// export: P.Room
// set: G[2]=4
package P
  type ContinuousState = Real;
  model Room
    parameter Real g = 2;
    parameter Real G[2] = {g, 2*g}; // <- MX039
    ContinuousState T(start = 300);
  equation
    der(T) = -(G[1] + G[2])*(T - 290)/1000;
  end Room;
end P;
