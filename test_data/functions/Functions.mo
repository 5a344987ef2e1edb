// Functions by feature, loaded after examples/Base.mo: a record constant
// passed to a function, a function that calls an earlier one, protected
// variables, `for`, `if`, `while` and `return`, and a function whose
// logarithm leaves its domain at run time.
package Functions
  record Gas "Ideal gas constants"
    Real R(unit = "J/(kg.K)");
    Real k(unit = "1");
  end Gas;

  constant Gas air = Gas(R = 287, k = 1.4);

  function square
    input Real x;
    output Real y;
  algorithm
    y := x*x;
  end square;

  function drag "A nonlinear law with a loop, a branch and a call"
    input Real v;
    input Gas gas;
    output Real f;
  protected
    Real s;
    Integer i;
  algorithm
    s := 0;
    for k in 1:3 loop
      s := s + square(v)/k;
    end for;
    if v < 0 then
      f := -s*gas.k/gas.R;
      return;
    end if;
    f := s*gas.k/gas.R + log(1 + v*v);
    i := 0;
    while i < 2 loop
      f := f + 0.001*sin(v)*i;
      i := i + 1;
    end while;
  end drag;

  function logOf
    input Real x;
    output Real y;
  algorithm
    y := log(x);
  end logOf;

  model Coast "Two bodies slowed by a nonlinear drag"
    parameter Real c = 0.5;
    parameter Real a = 0.1;
    parameter Real b = 0.2;
    Base.ContinuousState v(start = 3);
    Base.ContinuousState w(start = -2);
    Real f;
  equation
    f = drag(v, air);
    der(v) = -c*f - a*w;
    der(w) = -drag(w, Gas(R = 300, k = 1.3)) + b*v;
  end Coast;

  model Fails "log of a negative number inside a function"
    Base.ContinuousState x(start = 1);
  equation
    der(x) = logOf(x - 2);
  end Fails;
end Functions;
