package P "kinds"
  partial model M end M;
  block B end B;
  expandable connector X end X;
  connector C Real v; flow Real i; end C;
  record R Real a; end R;
  operator record O end O;
  encapsulated package Q end Q;
  class K end K;
  pure function F end F;
  type T = Real(unit = "m") "length";
  type V = input Real[3];
  type E = enumeration(a "first", b);
  type A = enumeration(:);
  function G extends F; end G;
end P;
