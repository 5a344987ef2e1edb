package P
  model M
    output Real re;
    output Real im;
  equation
    re = 1;
    im = 0;
  end M;
end P;
