model M
  parameter String s = "never closed;
end M;
