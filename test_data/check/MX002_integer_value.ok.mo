// export: P.M
package P
  model M
    parameter Integer n = 3;
    output Real y;
  equation
    y = n;
  end M;
end P;
