// first: MC103
// In the style of the Modelica compliance suite: an outer component that an
// enclosing model must provide as inner.
package ModelicaCompliance
  package Scoping
    package InnerOuter
      model World
        parameter Real g = 9.81;
      end World;
      model Particle
        outer World world; // <- MC103
        Real v(start = 0);
      equation
        der(v) = -world.g;
      end Particle;
      model InnerOuterBasic
        inner World world(g = 1.62); // <- MC103
        Particle p;
        annotation(__ModelicaAssociation(TestCase(shouldPass = true, section = {"5.4"})),
          experiment(StopTime = 0.01));
      end InnerOuterBasic;
    end InnerOuter;
  end Scoping;
end ModelicaCompliance;
