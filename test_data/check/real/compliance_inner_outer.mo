// first: MC038
// In the style of the Modelica compliance suite: an outer component that an
// enclosing model must provide as inner (admitted for a world of
// parameters); `v` is a plain Real, not a ContinuousState.
package ModelicaCompliance
  package Scoping
    package InnerOuter
      model World
        parameter Real g = 9.81;
      end World;
      model Particle
        outer World world;
        Real v(start = 0);
      equation
        der(v) = -world.g; // <- MC038
      end Particle;
      model InnerOuterBasic
        inner World world(g = 1.62);
        Particle p;
        annotation(__ModelicaAssociation(TestCase(shouldPass = true, section = {"5.4"})),
          experiment(StopTime = 0.01));
      end InnerOuterBasic;
    end InnerOuter;
  end Scoping;
end ModelicaCompliance;
