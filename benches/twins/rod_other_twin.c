/* A hand-written C twin of RodOtherStyle.Heating (benches/other_style_rod):
 * the rod written per volume, der(T[i]) = k*(T[i-1] - 2*T[i] + T[i+1]), the
 * end volumes fed through kq, heated at volume 1 through a conductor from a
 * source at 400 K and closed at volume n by a zero heat flow. The parameter
 * values and the order of operations are those of the Modelica source, so
 * its results must agree with the FMU's bit for bit. The benchmarks compile
 * it with mofmu's own compiler flags. */
#include <stddef.h>

#define TWIN_API __attribute__((visibility("default")))

/* Parameters of Heating: Rod defaults, source T = 400, conductor G = 1,
 * insulation Q_flow = 0. */
static const double L = 0.1, A = 1e-4, rho = 2700.0, c = 900.0, lambda = 200.0;
static const double T_source = 400.0, G_conductor = 1.0;

/* dT = der(T) at the temperatures T. */
TWIN_API void rod_other_twin_derivatives(size_t n, const double *T, double *dT)
{
    const double k = lambda / (rho * c) * (((double)n / L) * ((double)n / L));
    const double kq = (double)n / (rho * c * A * L);
    const double Q_a = G_conductor * (T_source - T[0]);
    size_t i;
    dT[0] = kq * Q_a + k * (T[1] - T[0]);
    for (i = 1; i < n - 1; i++)
        dT[i] = k * (T[i - 1] - 2 * T[i] + T[i + 1]);
    dT[n - 1] = kq * 0.0 + k * (T[n - 2] - T[n - 1]);
}
