// first: MC101
// In the style of the Modelica compliance suite: a stream connector with
// inStream and actualStream.
within;
package ModelicaCompliance
  package Icons
    partial class TestCase
    end TestCase;
  end Icons;
  package Connections
    package Stream
      model StreamConnectorBasic
        extends Icons.TestCase;
        connector FluidPort
          Real p;
          flow Real m_flow;
          stream Real h_outflow; // <- MC101
        end FluidPort;
        FluidPort port;
        Real h;
      equation
        port.p = 1;
        port.h_outflow = 2;
        h = inStream(port.h_outflow);
        annotation(__ModelicaAssociation(TestCase(shouldPass = true, section = {"15.1"})),
          experiment(StopTime = 0.01),
          Documentation(info = "<html>Tests a basic stream connector.</html>"));
      end StreamConnectorBasic;
    end Stream;
  end Connections;
end ModelicaCompliance;
