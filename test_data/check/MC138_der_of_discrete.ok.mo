package P
  block B
    input Real u;
    output Real y;
    Boolean on "Switched on";
  equation
    on = u > 0;
    y = if on then u else 0;
  end B;
end P;
