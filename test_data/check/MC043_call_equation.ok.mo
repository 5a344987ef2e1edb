package P
  block B
    input Real u;
    output Real y;
  equation
    y = u;
    assert(y < 10, "y is too large");
  end B;
end P;
