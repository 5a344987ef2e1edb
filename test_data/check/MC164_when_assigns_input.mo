encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  connector BooleanInput = input Boolean;
  block B "A when that assigns its input"
    BooleanInput on;
    input Real u;
  equation
    when u > 1 then
      on = true; // <- MC164
    end when;
  end B;
end P;
