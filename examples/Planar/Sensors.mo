within Planar;
encapsulated package Sensors "Measurements that exert no force"
  import SI = Base.Units;
  import Planar.Interfaces;

  model RelativeAngle "Angle and angular velocity of flange_b relative to flange_a"
    Interfaces.FlangeTo flange_a "Reference flange";
    Interfaces.FlangeTo flange_b "Measured flange";
    Interfaces.RealOutput phi "Relative angle, in rad";
    Interfaces.RealOutput w "Relative angular velocity, in rad/s";
  equation
    phi = flange_b.phi - flange_a.phi;
    w = flange_b.w - flange_a.w;
    flange_a.f0 = {0, 0};
    flange_a.t = 0;
    flange_b.f0 = {0, 0};
    flange_b.t = 0;
  end RelativeAngle;

end Sensors;
