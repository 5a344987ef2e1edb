// A constant of the enclosing package used before it is declared.
package P
  block Gain
    input Real u;
    output Real y;
  equation
    y = k*u; // <- MC085
  end Gain;
  constant Real k = 2;
end P;
