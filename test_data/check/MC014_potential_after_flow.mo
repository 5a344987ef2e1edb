package P
  connector Frame
    input Real x;
    flow Real fx;
    Real vy; // <- MC014
    flow Real fy;
  end Frame;
end P;
