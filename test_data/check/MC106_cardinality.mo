package P
  block B
    input Real u;
    output Real y;
  equation
    y = if cardinality(u) > 0 then u else 0; // <- MC106
  end B;
end P;
