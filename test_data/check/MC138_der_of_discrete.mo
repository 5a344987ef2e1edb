package P
  block B
    input Real u;
    output Real y;
    Boolean on "Switched on";
  equation
    on = u > 0;
    y = der(on); // <- MC138
  end B;
end P;
