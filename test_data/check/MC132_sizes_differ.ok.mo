package P
  block B "Two arrays sized by one parameter"
    parameter Integer n = 3;
    parameter Real G[n] = {1, 2, 3};
    input Real u;
    output Real x[n];
    output Real y[n];
  equation
    x = u*G;
    y = 2*x;
  end B;
end P;
