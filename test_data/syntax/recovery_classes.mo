package P
  model Broken(
    Real x;
  equation
    x = 1;
  end Broken;
  model Fine
    Real y;
  end Fine;
end P;
model Top
end Top
model After
end After;
