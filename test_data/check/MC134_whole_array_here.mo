package P
  block B "A whole parameter-sized array in an array constructor"
    parameter Integer n = 3;
    parameter Real G[n] = {1, 2, 3};
    input Real u;
    output Real y[2];
  equation
    y = {u*sum(G), u*G}; // <- MC134
  end B;
end P;
