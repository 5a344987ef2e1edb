connector Pin
  Real v;
  flow Real i;
end Pin;
