model M
  Real a = x^y^z;
  Real b[3] = {i for i in 1:3};
  Real c = sum(i for i in 1:3);
equation
  (a, b) = f(x);
  c = g(function h(k = 1));
  d = ();
end M;
