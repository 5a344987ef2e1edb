package P
  connector Frame
    input Real x;
    flow Real fx;
    input Real y;
    flow Real fy;
  end Frame;
end P;
