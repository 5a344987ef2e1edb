package P
  record R
    Real a;
    Real b;
  end R;
end P;
