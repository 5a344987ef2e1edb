// export: P.M
package P
  model M
    parameter Real k = 1e300;
    output Real y;
  equation
    y = k;
  end M;
end P;
