// export: P.M
// set: clip=false
package P
  model M
    parameter Boolean clip = true;
    output Real y;
  equation
    y = if clip then 1 else 0;
  end M;
end P;
