// A package constant without a value, used by a class.
package P
  partial package PartialLiquid
    constant Real cp(unit = "J/(kg.K)");
  end PartialLiquid;
  package Water
    extends PartialLiquid;
  end Water;
  block Heat
    parameter Real m(unit = "kg") = 2;
    output Real C(unit = "J/K");
  equation
    C = m*Water.cp; // <- MC084
  end Heat;
end P;
