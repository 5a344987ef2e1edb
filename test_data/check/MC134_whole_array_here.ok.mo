package P
  block B "Reductions of a parameter-sized array in an array constructor"
    parameter Integer n = 3;
    parameter Real G[n] = {1, 2, 3};
    input Real u;
    output Real y[2];
  equation
    y = {u*sum(G), u*max(G)};
  end B;
end P;
