package Lib
  package Interfaces
    connector RealInput = input Real;
    connector RealOutput = output Real;
    partial block SO
      RealOutput y;
    end SO;
    block Doubler
      Components.Gain g(k = 2); // <- MC050
      RealInput u;
      RealOutput y;
    equation
      connect(u, g.u);
      connect(g.y, y);
    end Doubler;
  end Interfaces;
  package Components
    block Gain
      parameter Real k = 1;
      Interfaces.RealInput u;
      Interfaces.RealOutput y;
    equation
      y = k*u;
    end Gain;
  end Components;
end Lib;
