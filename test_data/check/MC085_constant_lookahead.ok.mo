// export: P.Source
package P
  constant Real k = 2;
  block Source
    output Real y;
  equation
    y = k*time;
  end Source;
end P;
