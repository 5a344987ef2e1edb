// export: P.Source
package P
  package Data
    constant Real g = 9.81;
    constant Real h = 2*g;
    constant Real v[3] = {1, 2, 3}*h;
  end Data;
  block Source
    output Real y;
    output Real z;
  equation
    y = Data.g*time;
    z = Data.h*time + Data.v[3];
  end Source;
end P;
