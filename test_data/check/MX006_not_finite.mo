// export: P.M
package P
  model M // <- MX006
    parameter Real k = 1e300*1e300;
    output Real y;
  equation
    y = k;
  end M;
end P;
