// export: P.M
package P
  record R
    Real a;
    Real b;
  end R;
  constant R r = R(a = 1, b = 2);
  constant Real c = r.b + 1;
  model M
    Real y;
  equation
    y = (r.a + c)*time;
  end M;
end P;
