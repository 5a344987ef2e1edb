/* A bouncing ball, FMI 3.0 Model Exchange: h' = v, v' = -g, event indicator h.
 * At an impact (h <= 0 while falling) the event update sets h = 0 and
 * v = -e v. First impact from h0 at rest: t1 = sqrt(2 h0 / g); impact k + 1
 * follows impact k after 2 e^k t1.
 * Value references: 0 time, 1 h, 2 v, 3 der(h), 4 der(v), 5 g, 6 e. */
#define N_REALS 7
#include "test_fmu3.h"

static void model_start(Model *m)
{
    m->r[1] = 1.0;
    m->r[2] = 0.0;
    m->r[5] = 9.81;
    m->r[6] = 0.7;
}

static size_t model_length(const Model *m, fmi3ValueReference vr)
{
    (void)m;
    return vr >= 1 && vr <= 6;
}

static size_t model_states(const Model *m) { (void)m; return 2; }
static fmi3ValueReference model_state_vr(const Model *m, size_t i) { (void)m; return 1 + (fmi3ValueReference)i; }
static fmi3ValueReference model_derivative_vr(const Model *m, size_t i) { (void)m; return 3 + (fmi3ValueReference)i; }

static void model_compute(Model *m)
{
    m->r[3] = m->r[2];
    m->r[4] = -m->r[5];
}

static size_t model_indicators(const Model *m, double *z)
{
    z[0] = m->r[1];
    return 1;
}

static int model_event(Model *m)
{
    if (m->r[1] <= 0.0 && m->r[2] < 0.0) {
        m->r[1] = 0.0;
        m->r[2] = -m->r[6] * m->r[2];
        return 1;
    }
    return 0;
}

static double model_next_event(const Model *m) { (void)m; return INFINITY; }
static void model_step(Model *m, double h) { (void)m; (void)h; }
