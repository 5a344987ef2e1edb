package P
  block B "Two arrays sized by different parameters"
    parameter Integer n = 3;
    parameter Integer m = 3;
    parameter Real G[n] = {1, 2, 3};
    input Real u;
    output Real x[n];
    output Real y[m];
  equation
    x = u*G;
    y = 2*x; // <- MC132
  end B;
end P;
