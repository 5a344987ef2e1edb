/* A hand-written C twin of Thermal.Examples.RodHeating (examples/Thermal):
 * a rod of n volumes heated at volume 1 through a conductor from a source at
 * 400 K and closed at volume n by a zero heat flow. It is what a programmer
 * writes for these equations, with the same parameter values and the same
 * order of operations as the Modelica source, so its results must agree
 * with the FMU's bit for bit. The benchmark and the test compile it with
 * mofmu's own compiler flags. */
#include <stddef.h>

#define TWIN_API __attribute__((visibility("default")))

/* Parameters of RodHeating: Rod defaults, source T = 400, conductor G = 1,
 * insulation Q_flow = 0. */
static const double L = 0.1, A = 1e-4, rho = 2700.0, c = 900.0, lambda = 200.0;
static const double T_source = 400.0, G_conductor = 1.0, Q_insulation = 0.0;

/* dT = der(T) at the temperatures T. */
TWIN_API void rod_twin_derivatives(size_t n, const double *T, double *dT) {
    const double C = rho * c * A * L / (double)n;
    const double G = lambda * A / (L / (double)n);
    const double Q_a = G_conductor * (T_source - T[0]);
    const double Q_b = -(-Q_insulation);
    size_t i;
    dT[0] = (Q_a + G * (T[1] - T[0])) / C;
    for (i = 1; i < n - 1; i++)
        dT[i] = G * (T[i - 1] - 2 * T[i] + T[i + 1]) / C;
    dT[n - 1] = (Q_b + G * (T[n - 2] - T[n - 1])) / C;
}

/* dv = d(der(T))/dT · v: the hand-written tangent (the model is linear). */
TWIN_API void rod_twin_tangent(size_t n, const double *v, double *dv) {
    const double C = rho * c * A * L / (double)n;
    const double G = lambda * A / (L / (double)n);
    size_t i;
    dv[0] = (-G_conductor * v[0] + G * (v[1] - v[0])) / C;
    for (i = 1; i < n - 1; i++)
        dv[i] = G * (v[i - 1] - 2 * v[i] + v[i + 1]) / C;
    dv[n - 1] = G * (v[n - 2] - v[n - 1]) / C;
}
