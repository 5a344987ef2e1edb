package P
  record R
    Real a;
    Real b;
  equation // <- MC078
    b = 2*a;
  end R;
end P;
