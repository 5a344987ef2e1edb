// class: P.M
// An equation that is not linear in the unknown it would determine is
// refused with its code, at its line; its unknown then counts as
// determined, so `y = z` is not a second error of the same cause.
package P
  model M
    input Real u;
    Real z;
    output Real y;
  equation
    z*z = u;
    y = z;
  end M;
end P;
