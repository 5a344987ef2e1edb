// first: MC102
// In the style of the Modelica compliance suite: an expandable bus that
// gains its members from the connections.
package ModelicaCompliance
  package Connections
    package Expandable
      model ExpandableConnectorAugment
        expandable connector Bus // <- MC102
        end Bus;
        connector RealOutput = output Real;
        model Source
          RealOutput y;
        equation
          y = time;
        end Source;
        Bus bus;
        Source s;
      equation
        connect(s.y, bus.signal);
        annotation(__ModelicaAssociation(TestCase(shouldPass = true, section = {"9.1.3"})),
          experiment(StopTime = 0.01));
      end ExpandableConnectorAugment;
    end Expandable;
  end Connections;
end ModelicaCompliance;
