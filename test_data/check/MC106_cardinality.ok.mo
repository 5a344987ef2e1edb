package P
  block B
    parameter Real useInput = 1;
    input Real u;
    output Real y;
  equation
    y = if useInput > 0 then u else 0;
  end B;
end P;
