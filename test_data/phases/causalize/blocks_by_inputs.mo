// class: P.M
// Assignments are grouped by the inputs they depend on: what reads no
// input first, then what reads u only, v only, and both.
package P
  model M
    parameter Real k = 2;
    input Real u;
    input Real v;
    Real c;
    output Real a;
    output Real b;
    output Real s;
  equation
    a = k*u;
    c = k + 1;
    b = v - c;
    s = a + b;
  end M;
end P;
