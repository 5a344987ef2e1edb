// export: P.Room
// set: g=4
package P
  type ContinuousState = Real;
  model Room
    parameter Real g = 2;
    parameter Real G[2] = {g, 2*g};
    ContinuousState T(start = 300);
  equation
    der(T) = -(G[1] + G[2])*(T - 290)/1000;
  end Room;
end P;
