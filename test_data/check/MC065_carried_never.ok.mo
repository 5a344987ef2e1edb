package P
  type RealWithDerivative = Real;
  block B
    input RealWithDerivative u;
    output RealWithDerivative y;
  equation
    y = 2*u;
  end B;
end P;
