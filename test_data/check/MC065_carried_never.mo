package P
  type RealWithDerivative = Real;
  block B
    input Real u;
    output RealWithDerivative y; // <- MC065
  equation
    y = 2*u;
  end B;
end P;
