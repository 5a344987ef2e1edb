model M
  Real x § y;
  Real z = 1 # 2;
  Real ok;
end M;
