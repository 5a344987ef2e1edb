// Two heat capacities in a chain, in a package that imports the SI types
// the way a Modelica user does (an import in a plain package).
package HeatChain
  import SI = Base.Units;
  model TwoNodes
    parameter SI.HeatCapacity C = 10;
    parameter SI.ThermalConductance G = 2;
    parameter SI.Temperature T0 = 300;
    Real T1(start = 350);
    Real T2(start = 400);
    Real Q01;
    Real Q12;
  equation
    C*der(T1) = Q01 - Q12;
    C*der(T2) = Q12;
    Q01 = G*(T0 - T1);
    Q12 = G*(T1 - T2);
    annotation(experiment(StopTime = 20));
  end TwoNodes;
end HeatChain;
