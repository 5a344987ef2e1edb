// class: P.M
// An equation that is not linear in the unknown it would determine is
// refused with its code, at its line.
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
