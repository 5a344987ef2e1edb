package P
  block B
    output Real y;
  equation
    y = "one"; // <- MC034
  end B;
end P;
