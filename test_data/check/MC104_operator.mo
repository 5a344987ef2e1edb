package P
  operator record Complex // <- MC104
    Real re;
    Real im;
  end Complex;
end P;
