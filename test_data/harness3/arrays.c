/* Arrays sized by a structural parameter, FMI 3.0 Model Exchange and
 * Co-Simulation: n (UInt64, value reference 100) sizes the states x[n] and
 * their derivatives; der(x[i]) = -k i x[i] with x[i](0) = 1, so
 * x[i](t) = exp(-k i t). The outputs y[2] (a fixed array) are the sum of x
 * and its last element. Co-Simulation steps exactly.
 * Value references: 0 time, 1 k, 2 y[2], 10 x[n], 60 der(x)[n]. */
#define N_REALS 110
#define HAS_CS
#define STRUCTURAL_VR 100
#define N_MIN 1
#define N_MAX 50
#define N_START 3
#include "test_fmu3.h"

static void model_start(Model *m)
{
    size_t i;
    m->r[1] = 0.5;
    for (i = 0; i < m->n; i++) m->r[10 + i] = 1.0;
}

static size_t model_length(const Model *m, fmi3ValueReference vr)
{
    if (vr == 1) return 1;
    if (vr == 2) return 2;
    if (vr == 10 || vr == 60) return m->n;
    return 0;
}

static size_t model_states(const Model *m) { return m->n; }
static fmi3ValueReference model_state_vr(const Model *m, size_t i) { (void)m; return 10 + (fmi3ValueReference)i; }
static fmi3ValueReference model_derivative_vr(const Model *m, size_t i) { (void)m; return 60 + (fmi3ValueReference)i; }

static void model_compute(Model *m)
{
    size_t i;
    double sum = 0.0;
    for (i = 0; i < m->n; i++) {
        m->r[60 + i] = -m->r[1] * (double)(i + 1) * m->r[10 + i];
        sum += m->r[10 + i];
    }
    m->r[2] = sum;
    m->r[3] = m->r[10 + m->n - 1];
}

static size_t model_indicators(const Model *m, double *z) { (void)m; (void)z; return 0; }
static int model_event(Model *m) { (void)m; return 0; }
static double model_next_event(const Model *m) { (void)m; return INFINITY; }

static void model_step(Model *m, double h)
{
    size_t i;
    for (i = 0; i < m->n; i++) m->r[10 + i] *= exp(-m->r[1] * (double)(i + 1) * h);
    model_compute(m);
}
