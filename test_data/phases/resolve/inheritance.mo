// A class inherits its base's elements first, then declares its own;
// a modifier on `extends` changes the inherited binding.
package Inherit
  partial block Base
    parameter Real k = 1;
    output Real y;
  end Base;
  block Derived
    extends Base(k = 4);
    input Real u;
  equation
    y = k*u;
  end Derived;
end Inherit;
