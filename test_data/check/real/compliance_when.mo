// first: MC116
// In the style of the Modelica compliance suite: a sampler with a when
// equation, pre and reinit. The periodic `when` is the clocked form's; the
// `when` on a condition would be admitted (DESIGN §2.2c) once the sampler is
// written in clocked form.
package ModelicaCompliance
  package Equations
    package WhenEquations
      model WhenSample
        parameter Real period = 0.1;
        Real x(start = 1);
        discrete Real y(start = 0);
      equation
        der(x) = -x;
        when sample(0, period) then // <- MC116
          y = pre(y) + x;
        end when;
        when x < 0.5 then
          reinit(x, 1);
        end when;
        annotation(__ModelicaAssociation(TestCase(shouldPass = true, section = {"8.3.5"})),
          experiment(StopTime = 1));
      end WhenSample;
    end WhenEquations;
  end Equations;
end ModelicaCompliance;
