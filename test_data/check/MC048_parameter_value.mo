package P
  block B
    parameter Real k; // <- MC048
    input Real u;
    output Real y;
  equation
    y = k*u;
  end B;
end P;
