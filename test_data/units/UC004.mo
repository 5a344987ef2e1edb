// UC004: a value (binding, start value or modifier) in another unit than
// its variable; the twin gives the length in a length.
package UC004
  block Source
    parameter Real L(unit = "m") = 1;
    output Real y(unit = "m");
  equation
    y = L;
  end Source;
  model Bad
    parameter Real T(unit = "s") = 2;
    Source src(L = T);
  end Bad;
  model Good
    parameter Real D(unit = "m") = 2;
    Source src(L = D);
  end Good;
end UC004;
