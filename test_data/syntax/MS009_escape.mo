model M
  String s = "bad \q escape";
  Real ok;
end M;
