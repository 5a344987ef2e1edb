package P
  block B
    output Real y;
  equation
    y = 2*Modelica.Constants.pi;
  end B;
end P;
