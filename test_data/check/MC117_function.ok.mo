// export: P.M
package P
  function f
    input Real x;
    output Real y;
  algorithm
    y := 2*x;
  end f;
  model M
    Real y;
  equation
    y = f(time);
  end M;
end P;
