package P
  connector Frame
    input Real x;
    flow Real fx;
    flow Real fy; // <- MC013
  end Frame;
end P;
