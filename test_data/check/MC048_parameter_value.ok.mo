package P
  block B
    parameter Real k = 1;
    input Real u;
    output Real y;
  equation
    y = k*u;
  end B;
end P;
