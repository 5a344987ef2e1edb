encapsulated package PC
  constant Real k = 2;
  package Units
    type Density = Real(unit = "kg/m3");
  end Units;
  package Media
    partial package PartialLiquid
      constant Units.Density rho;
      constant Real v[2] = {1, 2*rho};
    end PartialLiquid;
    package Water
      extends PartialLiquid(rho = 995);
    end Water;
  end Media;
  block Use
    output Real a;
    output Real b;
    output Real c;
  equation
    a = Media.Water.rho;
    b = k;
    c = Media.Water.v[2];
  end Use;
end PC;
