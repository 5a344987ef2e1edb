// export: P.Heat
package P
  partial package PartialLiquid
    constant Real cp(unit = "J/(kg.K)");
  end PartialLiquid;
  package Water
    extends PartialLiquid(cp = 4184);
  end Water;
  block Heat
    parameter Real m(unit = "kg") = 2;
    output Real C(unit = "J/K");
  equation
    C = m*Water.cp;
  end Heat;
end P;
