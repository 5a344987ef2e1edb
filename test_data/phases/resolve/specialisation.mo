// A replaceable package redeclared on a component: the component's class
// is a specialisation of the generic class, compiled once per distinct set
// of redeclarations, and sees the redeclared package's constant.
package Spec
  package Medium
    constant Real cp = 1;
  end Medium;
  package Oil
    constant Real cp = 2;
  end Oil;
  block Vessel
    replaceable package M = Medium;
    output Real c;
  equation
    c = M.cp;
  end Vessel;
  block Plant
    Vessel plain;
    Vessel oily(redeclare package M = Oil);
    Vessel oily2(redeclare package M = Oil);
  end Plant;
end Spec;
