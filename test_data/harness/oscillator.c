/* A non-stiff harmonic oscillator x'' = -w^2 x, written as x' = v, v' = -w^2 x, with
 * x(0) = 1, v(0) = 0: x = cos(w t), v = -w sin(w t).
 * Value references: 0 x, 1 v, 2 der(x), 3 der(v), 4 w. */
#define N_REALS 5
#define N_STATES 2
#define N_INDICATORS 0
#define STATE_VRS {0, 1}
#define DERIVATIVE_VRS {2, 3}
#include "test_fmu.h"

static void model_start(Model *m) {
    m->r[0] = 1.0;
    m->r[1] = 0.0;
    m->r[4] = 2.0 * 3.14159265358979323846;
}

static void model_compute(Model *m) {
    m->r[2] = m->r[1];
    m->r[3] = -m->r[4] * m->r[4] * m->r[0];
}

static void model_indicators(Model *m, double *z) { (void)m; (void)z; }
static void model_event(Model *m, fmi2EventInfo *info) { (void)m; (void)info; }
