within Library.Sub;

// Every class kind and prefix, long and short forms.
encapsulated partial model M "a model"
end M;

class C end C;
block B "block" end B;
expandable connector Bus end Bus;
record R end R;
operator record Complex
  operator '+'
  end '+';
end Complex;
pure function f end f;
impure function g end g;
package P
  type Length = Real(unit = "m", min = 0) "a length";
  connector RealInput = input Real "input signal";
  type Vec3 = Real[3](each unit = "m");
  type Choice = enumeration(a "first", b, c) "an enumeration";
  type DPhi = der(Length, time);
  model Ext
    extends Base(k = 2);
  end Ext;
  model extends Inherited(x = 1) "class extension"
    Real y;
  end Inherited;
end P;
final model Last
  annotation(Documentation(info = "<html>text</html>"));
end Last;
