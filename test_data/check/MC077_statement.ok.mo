// export: P.M
package P
  function f
    input Real x;
    output Real y;
  protected
    Real r;
  algorithm
    y := x;
    if x > 1 then
      y := 1;
      return;
    end if;
    r := x;
    while r > 0.5 loop
      r := r/2;
    end while;
    y := y + r;
  end f;
  model M
    Real y;
  equation
    y = f(time);
  end M;
end P;
