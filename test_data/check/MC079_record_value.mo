package P
  record R
    Real a;
    Real b;
  end R;
  constant R r = R(a = 1, b = 2);
  model M
    Real y;
  equation
    y = r*time; // <- MC079
  end M;
end P;
