encapsulated package Base
  type ContinuousState = Real;
end Base;
package P
  model M "A when inside a for loop"
    parameter Integer n = 2;
    Base.ContinuousState x[n](each start = 1);
    Integer k[n](each start = 0);
  equation
    for i in 1:n loop
      when x[i] < 0.5 then // <- MC160
        k[i] = pre(k[i]) + 1;
      end when;
      der(x[i]) = -x[i];
    end for;
  end M;
end P;
