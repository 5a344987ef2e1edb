package P
  block B
    output Real y;
  equation
    y = 2*Modelica.Constants.pie; // <- MC093
  end B;
end P;
