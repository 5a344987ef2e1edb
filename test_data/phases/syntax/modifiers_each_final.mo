model M
  extends Base(final k = 2, each n = 3);
  Real x[3](each start = 1, final unit = "K") = {1, 2, 3};
  S s(redeclare package Medium = Oil, k(final min = 0) = 2, redeclare Real y);
  final parameter Real p := 4;
  replaceable package Medium = Base constrainedby Base;
end M;
