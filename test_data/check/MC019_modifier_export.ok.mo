// export: P.M
package P
  block Source
    parameter Real k = 1;
    output Real y;
  equation
    y = k;
  end Source;
  model M
    Source s(k = 2);
  end M;
end P;
