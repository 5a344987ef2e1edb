model M "doc"
  Real x annotation(Placement(transformation(extent = {{0, 0}, {1, 1}})));
  model Inner
    annotation(experiment(StopTime = 99));
  end Inner;
equation
  x = 1 annotation(Line(points = {{0, 0}}));
  annotation(Documentation(info = "<html/>"),
    experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-6, Interval = -0.01, Foo = 1));
end M;
