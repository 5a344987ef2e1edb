// Package elements used from a class must be constants with constant values.
package P
  package Data
    parameter Real g = 9.81;
    constant Real h = 2*g;
  end Data;
  block Source
    output Real y;
    output Real z;
  equation
    y = Data.g*time; // <- MC086
    z = Data.h*time; // <- MC086
  end Source;
end P;
