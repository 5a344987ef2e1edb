// export: P.M
// set: clip=2
package P
  model M
    parameter Boolean clip = true; // <- MX021
    output Real y;
  equation
    y = if clip then 1 else 0;
  end M;
end P;
