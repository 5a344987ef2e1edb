// class: P.M
// An equation linear in its unknown is solved for it: z on the right
// side, multiplied and shifted.
package P
  model M
    input Real u;
    Real z;
    output Real y;
  equation
    u = 2*z + 3;
    y = z;
  end M;
end P;
