// export: P.M
package P
  model M
    output Real y;
  equation
    y = time;
    annotation(experiment(StopTime = 10, Tolerance = 1e-6));
  end M;
end P;
