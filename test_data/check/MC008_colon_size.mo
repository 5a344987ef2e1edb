package P
  model M
    parameter Real c[:] = {1, 2}; // <- MC008
  end M;
end P;
