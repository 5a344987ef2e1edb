// export: P.M
package P
  block Source
    parameter Real k = 1;
    output Real y;
  equation
    y = k;
  end Source;
  model M
    Source s(gain = 2); // <- MC019
  end M;
end P;
