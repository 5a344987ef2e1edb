encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  connector BooleanOutput = output Boolean;
  block B "The output carries the value out"
    BooleanOutput on(start = false);
    input Real u;
  equation
    when u > 1 then
      on = true;
    end when;
  end B;
end P;
