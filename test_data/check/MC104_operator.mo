package P
  operator record Complex // <- MC104 MC117
    Real re;
    Real im;
  end Complex;
end P;
