/* Exponential decay, FMI 3.0 Co-Simulation only: x' = -k x, stepped exactly
 * (x(t + h) = x(t) exp(-k h)), so x(t) = x0 exp(-k t) at every communication
 * point. Value references: 0 time, 1 x (output), 2 k, 3 x0. */
#define N_REALS 4
#define HAS_CS
#define NO_ME
#include "test_fmu3.h"

static void model_start(Model *m)
{
    m->r[2] = 0.8;
    m->r[3] = 2.0;
    m->r[1] = m->r[3];
}

static size_t model_length(const Model *m, fmi3ValueReference vr)
{
    (void)m;
    return vr >= 1 && vr <= 3;
}

static size_t model_states(const Model *m) { (void)m; return 0; }
static fmi3ValueReference model_state_vr(const Model *m, size_t i) { (void)m; (void)i; return 0; }
static fmi3ValueReference model_derivative_vr(const Model *m, size_t i) { (void)m; (void)i; return 0; }
static void model_compute(Model *m)
{
    if (m->state == S_INIT) m->r[1] = m->r[3];
}
static size_t model_indicators(const Model *m, double *z) { (void)m; (void)z; return 0; }
static int model_event(Model *m) { (void)m; return 0; }
static double model_next_event(const Model *m) { (void)m; return INFINITY; }
static void model_step(Model *m, double h) { m->r[1] *= exp(-m->r[2] * h); }
