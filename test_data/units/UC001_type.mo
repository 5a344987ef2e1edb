// UC001 written once in a type: one fault, reported where the unit is
// written, not at each of the four declarations that have it (two in a
// block, one a connector's member used by a model).
package UC001_type
  type Temperature = Real(unit = "Kx");
  connector Port
    output Temperature T;
  end Port;
  block Lag
    input Temperature u;
    output Temperature y;
  equation
    y = u;
  end Lag;
  model Source
    Port p;
  equation
    p.T = 300;
  end Source;
end UC001_type;
