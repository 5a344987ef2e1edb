model Rod
  parameter Base.Units.Lenght L = 1;
end Rod;
