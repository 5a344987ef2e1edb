// A package constant is folded to its value where a class uses it, with
// the unit of its declared type, through an `extends` that modifies it.
package Consts
  type SpecificHeat = Real(unit = "J/(kg.K)");
  constant Real k = 2;
  package Media
    partial package Partial
      constant SpecificHeat cp;
      constant SpecificHeat twice = 2*cp;
    end Partial;
    package Water
      extends Partial(cp = 4184);
    end Water;
  end Media;
  block Use
    output Real a;
    output Real b;
  equation
    a = Media.Water.twice;
    b = k;
  end Use;
end Consts;
